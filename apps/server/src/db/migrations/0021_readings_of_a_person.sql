ALTER TABLE "iot_device_data" ADD COLUMN "user_id" uuid;--> statement-breakpoint
ALTER TABLE "iot_device_data" ADD CONSTRAINT "iot_device_data_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "iot_device_data_user_timestamp_idx" ON "iot_device_data" USING btree ("user_id","timestamp","id");