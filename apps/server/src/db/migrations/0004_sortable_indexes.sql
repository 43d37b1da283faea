DROP INDEX "audit_log_at_idx";--> statement-breakpoint
DROP INDEX "device_runner_jobs_created_at_idx";--> statement-breakpoint
DROP INDEX "device_stats_device_timestamp_idx";--> statement-breakpoint
DROP INDEX "devices_role_idx";--> statement-breakpoint
DROP INDEX "devices_title_idx";--> statement-breakpoint
DROP INDEX "devices_created_at_idx";--> statement-breakpoint
DROP INDEX "workstations_created_at_idx";--> statement-breakpoint
DROP INDEX "alerts_active_timestamp_idx";--> statement-breakpoint
DROP INDEX "alerts_timestamp_idx";--> statement-breakpoint
DROP INDEX "iot_device_data_device_timestamp_idx";--> statement-breakpoint
DROP INDEX "iot_device_data_type_timestamp_idx";--> statement-breakpoint
DROP INDEX "iot_devices_created_at_idx";--> statement-breakpoint
DROP INDEX "command_centers_title_idx";--> statement-breakpoint
DROP INDEX "service_providers_type_idx";--> statement-breakpoint
DROP INDEX "service_providers_title_idx";--> statement-breakpoint
DROP INDEX "prescriptions_status_idx";--> statement-breakpoint
DROP INDEX "prescriptions_created_at_idx";--> statement-breakpoint
DROP INDEX "patient_profiles_status_idx";--> statement-breakpoint
DROP INDEX "patient_profiles_created_at_idx";--> statement-breakpoint
DROP INDEX "users_created_at_idx";--> statement-breakpoint
DROP INDEX "users_last_name_idx";--> statement-breakpoint
DROP INDEX "users_first_name_idx";--> statement-breakpoint
DROP INDEX "users_email_idx";--> statement-breakpoint
CREATE INDEX "device_stats_timestamp_idx" ON "device_stats" USING btree ("timestamp","id");--> statement-breakpoint
CREATE INDEX "iot_device_data_timestamp_idx" ON "iot_device_data" USING btree ("timestamp","id");--> statement-breakpoint
CREATE INDEX "command_centers_created_at_idx" ON "command_centers" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "service_providers_created_at_idx" ON "service_providers" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "patient_profiles_updated_at_idx" ON "patient_profiles" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "users_updated_at_idx" ON "users" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "device_runner_jobs_created_at_idx" ON "device_runner_jobs" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "device_stats_device_timestamp_idx" ON "device_stats" USING btree ("device_id","timestamp","id");--> statement-breakpoint
CREATE INDEX "devices_role_idx" ON "devices" USING btree ("role","id");--> statement-breakpoint
CREATE INDEX "devices_title_idx" ON "devices" USING btree ("title","id");--> statement-breakpoint
CREATE INDEX "devices_created_at_idx" ON "devices" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "workstations_created_at_idx" ON "workstations" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "alerts_active_timestamp_idx" ON "alerts" USING btree ("is_active","timestamp","id");--> statement-breakpoint
CREATE INDEX "alerts_timestamp_idx" ON "alerts" USING btree ("timestamp","id");--> statement-breakpoint
CREATE INDEX "iot_device_data_device_timestamp_idx" ON "iot_device_data" USING btree ("iot_device_id","timestamp","id");--> statement-breakpoint
CREATE INDEX "iot_device_data_type_timestamp_idx" ON "iot_device_data" USING btree ("data_type","timestamp","id");--> statement-breakpoint
CREATE INDEX "iot_devices_created_at_idx" ON "iot_devices" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "command_centers_title_idx" ON "command_centers" USING btree ("title","id");--> statement-breakpoint
CREATE INDEX "service_providers_type_idx" ON "service_providers" USING btree ("type","id");--> statement-breakpoint
CREATE INDEX "service_providers_title_idx" ON "service_providers" USING btree ("title","id");--> statement-breakpoint
CREATE INDEX "prescriptions_status_idx" ON "prescriptions" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "prescriptions_created_at_idx" ON "prescriptions" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "patient_profiles_status_idx" ON "patient_profiles" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "patient_profiles_created_at_idx" ON "patient_profiles" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "users_created_at_idx" ON "users" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "users_last_name_idx" ON "users" USING btree ("last_name","id");--> statement-breakpoint
CREATE INDEX "users_first_name_idx" ON "users" USING btree ("first_name","id");--> statement-breakpoint
CREATE INDEX "users_email_idx" ON "users" USING btree ("email","id");