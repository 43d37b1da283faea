CREATE INDEX "devices_title_trgm_idx" ON "devices" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "iot_devices_hardware_identifier_trgm_idx" ON "iot_devices" USING gin ("hardware_identifier" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "iot_devices_model_trgm_idx" ON "iot_devices" USING gin ("model" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_username_trgm_idx" ON "users" USING gin ("username" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_first_name_trgm_idx" ON "users" USING gin ("first_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_last_name_trgm_idx" ON "users" USING gin ("last_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);