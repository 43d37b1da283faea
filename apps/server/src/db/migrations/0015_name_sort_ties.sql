DROP INDEX "users_last_name_idx";--> statement-breakpoint
DROP INDEX "users_first_name_idx";--> statement-breakpoint
CREATE INDEX "users_last_name_idx" ON "users" USING btree ("last_name","first_name","id");--> statement-breakpoint
CREATE INDEX "users_first_name_idx" ON "users" USING btree ("first_name","last_name","id");