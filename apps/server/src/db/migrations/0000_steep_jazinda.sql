CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_user_id" uuid,
	"actor_subject" text,
	"action" text NOT NULL,
	"resource" text NOT NULL,
	"record_id" text,
	"changes" jsonb,
	"ip" text
);
--> statement-breakpoint
CREATE TABLE "device_runner_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"purpose" text DEFAULT 'No purpose provided.' NOT NULL,
	"commands" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"results" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'NEW' NOT NULL,
	"not_before" timestamp with time zone DEFAULT now() NOT NULL,
	"device_id" uuid NOT NULL,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_stats" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"timestamp" bigint NOT NULL,
	"boot_time" bigint,
	"firmware" text NOT NULL,
	"network" jsonb NOT NULL,
	"system" jsonb NOT NULL,
	"hardware" jsonb NOT NULL,
	"software" jsonb,
	"device_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"location" jsonb,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"role" text DEFAULT 'none' NOT NULL,
	"local_roles" text[] DEFAULT '{none}'::text[] NOT NULL,
	"token_hash" text,
	"assigned_user_id" uuid,
	"command_center_id" uuid,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "devices_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "workstation_devices" (
	"workstation_id" uuid NOT NULL,
	"device_id" uuid NOT NULL,
	CONSTRAINT "workstation_devices_workstation_id_device_id_pk" PRIMARY KEY("workstation_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "workstation_patients" (
	"workstation_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	CONSTRAINT "workstation_patients_workstation_id_user_id_pk" PRIMARY KEY("workstation_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "workstations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text,
	"device_id" uuid,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workstations_device_id_unique" UNIQUE("device_id")
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"timestamp" bigint NOT NULL,
	"data" jsonb NOT NULL,
	"closing_data" jsonb,
	"iot_device_id" uuid,
	"user_id" uuid,
	"closed_by_user_id" uuid,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "iot_device_data" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"timestamp" bigint NOT NULL,
	"data_type" text NOT NULL,
	"data" jsonb NOT NULL,
	"iot_device_id" uuid,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "iot_device_devices" (
	"iot_device_id" uuid NOT NULL,
	"device_id" uuid NOT NULL,
	CONSTRAINT "iot_device_devices_iot_device_id_device_id_pk" PRIMARY KEY("iot_device_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "iot_devices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"hardware_identifier" text NOT NULL,
	"device_identifier" text,
	"model" text NOT NULL,
	"trust_level" text,
	"connection_type" text DEFAULT 'unknown' NOT NULL,
	"connection_meta" jsonb,
	"connection_secret" text,
	"supported_data_types" text[] DEFAULT '{}'::text[] NOT NULL,
	"allow_multiple_device_relationships" boolean DEFAULT false NOT NULL,
	"assigned_user_id" uuid,
	"created_by_device_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "iot_devices_hardware_identifier_unique" UNIQUE("hardware_identifier")
);
--> statement-breakpoint
CREATE TABLE "command_center_users" (
	"command_center_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	CONSTRAINT "command_center_users_command_center_id_user_id_pk" PRIMARY KEY("command_center_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "command_centers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"address" jsonb NOT NULL,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_providers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"type" text NOT NULL,
	"address" jsonb NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_signing_parties" (
	"document_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	CONSTRAINT "document_signing_parties_document_id_user_id_pk" PRIMARY KEY("document_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text DEFAULT 'Document' NOT NULL,
	"is_signed" boolean DEFAULT true NOT NULL,
	"signing_parties_metadata" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prescriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"issuer_id" uuid,
	"issuer_receipt_id" uuid,
	"pickup_by_nurse" boolean,
	"nurse_id" uuid,
	"supplier_id" uuid,
	"shipper_id" uuid,
	"shipper_driver_id" uuid,
	"pickup_receipt_id" uuid,
	"recipient_id" uuid,
	"pickup_address" jsonb,
	"delivery_address" jsonb,
	"content" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "patient_profiles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"status" text DEFAULT 'enrollment' NOT NULL,
	"location" jsonb,
	"emergency_contacts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_assigned_nurses" (
	"user_id" uuid NOT NULL,
	"nurse_id" uuid NOT NULL,
	CONSTRAINT "user_assigned_nurses_user_id_nurse_id_pk" PRIMARY KEY("user_id","nurse_id")
);
--> statement-breakpoint
CREATE TABLE "user_employers" (
	"user_id" uuid NOT NULL,
	"service_provider_id" uuid NOT NULL,
	CONSTRAINT "user_employers_user_id_service_provider_id_pk" PRIMARY KEY("user_id","service_provider_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"username" text NOT NULL,
	"username_without_domain" text NOT NULL,
	"primary_domain" text NOT NULL,
	"master_id" text,
	"email" text,
	"phone_number" text,
	"title" text,
	"first_name" text,
	"last_name" text,
	"identity_assurance_level" text,
	"is_verified" boolean DEFAULT false NOT NULL,
	"is_blocked" boolean DEFAULT false NOT NULL,
	"registration_completed" boolean DEFAULT false NOT NULL,
	"registration_status" text DEFAULT 'registered' NOT NULL,
	"address" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"roles" text[] DEFAULT '{}'::text[] NOT NULL,
	"local_roles" text[] DEFAULT '{none}'::text[] NOT NULL,
	"matrix_identity" jsonb,
	"additional_info" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"patient_profile_id" uuid,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_username_unique" UNIQUE("username"),
	CONSTRAINT "users_master_id_unique" UNIQUE("master_id"),
	CONSTRAINT "users_patient_profile_id_unique" UNIQUE("patient_profile_id")
);
--> statement-breakpoint
ALTER TABLE "device_runner_jobs" ADD CONSTRAINT "device_runner_jobs_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_runner_jobs" ADD CONSTRAINT "device_runner_jobs_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_stats" ADD CONSTRAINT "device_stats_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_assigned_user_id_users_id_fk" FOREIGN KEY ("assigned_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_command_center_id_command_centers_id_fk" FOREIGN KEY ("command_center_id") REFERENCES "public"."command_centers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workstation_devices" ADD CONSTRAINT "workstation_devices_workstation_id_workstations_id_fk" FOREIGN KEY ("workstation_id") REFERENCES "public"."workstations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workstation_devices" ADD CONSTRAINT "workstation_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workstation_patients" ADD CONSTRAINT "workstation_patients_workstation_id_workstations_id_fk" FOREIGN KEY ("workstation_id") REFERENCES "public"."workstations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workstation_patients" ADD CONSTRAINT "workstation_patients_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workstations" ADD CONSTRAINT "workstations_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workstations" ADD CONSTRAINT "workstations_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_iot_device_id_iot_devices_id_fk" FOREIGN KEY ("iot_device_id") REFERENCES "public"."iot_devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_closed_by_user_id_users_id_fk" FOREIGN KEY ("closed_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_device_data" ADD CONSTRAINT "iot_device_data_iot_device_id_iot_devices_id_fk" FOREIGN KEY ("iot_device_id") REFERENCES "public"."iot_devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_device_data" ADD CONSTRAINT "iot_device_data_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_device_devices" ADD CONSTRAINT "iot_device_devices_iot_device_id_iot_devices_id_fk" FOREIGN KEY ("iot_device_id") REFERENCES "public"."iot_devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_device_devices" ADD CONSTRAINT "iot_device_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_devices" ADD CONSTRAINT "iot_devices_assigned_user_id_users_id_fk" FOREIGN KEY ("assigned_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_devices" ADD CONSTRAINT "iot_devices_created_by_device_id_devices_id_fk" FOREIGN KEY ("created_by_device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "command_center_users" ADD CONSTRAINT "command_center_users_command_center_id_command_centers_id_fk" FOREIGN KEY ("command_center_id") REFERENCES "public"."command_centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "command_center_users" ADD CONSTRAINT "command_center_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "command_centers" ADD CONSTRAINT "command_centers_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_providers" ADD CONSTRAINT "service_providers_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_signing_parties" ADD CONSTRAINT "document_signing_parties_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_signing_parties" ADD CONSTRAINT "document_signing_parties_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_issuer_id_users_id_fk" FOREIGN KEY ("issuer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_issuer_receipt_id_documents_id_fk" FOREIGN KEY ("issuer_receipt_id") REFERENCES "public"."documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_nurse_id_users_id_fk" FOREIGN KEY ("nurse_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_supplier_id_service_providers_id_fk" FOREIGN KEY ("supplier_id") REFERENCES "public"."service_providers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_shipper_id_service_providers_id_fk" FOREIGN KEY ("shipper_id") REFERENCES "public"."service_providers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_shipper_driver_id_users_id_fk" FOREIGN KEY ("shipper_driver_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_pickup_receipt_id_documents_id_fk" FOREIGN KEY ("pickup_receipt_id") REFERENCES "public"."documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_recipient_id_users_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_profiles" ADD CONSTRAINT "patient_profiles_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_assigned_nurses" ADD CONSTRAINT "user_assigned_nurses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_assigned_nurses" ADD CONSTRAINT "user_assigned_nurses_nurse_id_users_id_fk" FOREIGN KEY ("nurse_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_employers" ADD CONSTRAINT "user_employers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_employers" ADD CONSTRAINT "user_employers_service_provider_id_service_providers_id_fk" FOREIGN KEY ("service_provider_id") REFERENCES "public"."service_providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_patient_profile_id_patient_profiles_id_fk" FOREIGN KEY ("patient_profile_id") REFERENCES "public"."patient_profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_log_actor_at_idx" ON "audit_log" USING btree ("actor_user_id","at");--> statement-breakpoint
CREATE INDEX "audit_log_resource_record_idx" ON "audit_log" USING btree ("resource","record_id");--> statement-breakpoint
CREATE INDEX "device_runner_jobs_device_status_idx" ON "device_runner_jobs" USING btree ("device_id","status");--> statement-breakpoint
CREATE INDEX "device_runner_jobs_status_idx" ON "device_runner_jobs" USING btree ("status");--> statement-breakpoint
CREATE INDEX "device_runner_jobs_created_by_idx" ON "device_runner_jobs" USING btree ("created_by_user_id");--> statement-breakpoint
CREATE INDEX "device_runner_jobs_created_at_idx" ON "device_runner_jobs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "device_stats_device_timestamp_idx" ON "device_stats" USING btree ("device_id","timestamp");--> statement-breakpoint
CREATE INDEX "devices_assigned_user_idx" ON "devices" USING btree ("assigned_user_id");--> statement-breakpoint
CREATE INDEX "devices_command_center_idx" ON "devices" USING btree ("command_center_id");--> statement-breakpoint
CREATE INDEX "devices_role_idx" ON "devices" USING btree ("role");--> statement-breakpoint
CREATE INDEX "devices_local_roles_idx" ON "devices" USING gin ("local_roles");--> statement-breakpoint
CREATE INDEX "devices_title_idx" ON "devices" USING btree ("title");--> statement-breakpoint
CREATE INDEX "devices_created_at_idx" ON "devices" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "workstation_devices_device_idx" ON "workstation_devices" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "workstation_patients_user_idx" ON "workstation_patients" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "workstations_created_by_idx" ON "workstations" USING btree ("created_by_user_id");--> statement-breakpoint
CREATE INDEX "workstations_created_at_idx" ON "workstations" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "alerts_active_timestamp_idx" ON "alerts" USING btree ("is_active","timestamp");--> statement-breakpoint
CREATE INDEX "alerts_timestamp_idx" ON "alerts" USING btree ("timestamp");--> statement-breakpoint
CREATE INDEX "alerts_iot_device_idx" ON "alerts" USING btree ("iot_device_id");--> statement-breakpoint
CREATE INDEX "alerts_user_idx" ON "alerts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "alerts_created_by_idx" ON "alerts" USING btree ("created_by_user_id");--> statement-breakpoint
CREATE INDEX "alerts_closed_by_idx" ON "alerts" USING btree ("closed_by_user_id");--> statement-breakpoint
CREATE INDEX "iot_device_data_device_timestamp_idx" ON "iot_device_data" USING btree ("iot_device_id","timestamp");--> statement-breakpoint
CREATE INDEX "iot_device_data_type_timestamp_idx" ON "iot_device_data" USING btree ("data_type","timestamp");--> statement-breakpoint
CREATE INDEX "iot_device_data_created_by_idx" ON "iot_device_data" USING btree ("created_by_user_id");--> statement-breakpoint
CREATE INDEX "iot_device_devices_device_idx" ON "iot_device_devices" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "iot_devices_assigned_user_idx" ON "iot_devices" USING btree ("assigned_user_id");--> statement-breakpoint
CREATE INDEX "iot_devices_created_by_device_idx" ON "iot_devices" USING btree ("created_by_device_id");--> statement-breakpoint
CREATE INDEX "iot_devices_connection_type_idx" ON "iot_devices" USING btree ("connection_type");--> statement-breakpoint
CREATE INDEX "iot_devices_supported_data_types_idx" ON "iot_devices" USING gin ("supported_data_types");--> statement-breakpoint
CREATE INDEX "iot_devices_created_at_idx" ON "iot_devices" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "command_center_users_user_idx" ON "command_center_users" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "command_centers_title_idx" ON "command_centers" USING btree ("title");--> statement-breakpoint
CREATE INDEX "command_centers_created_by_idx" ON "command_centers" USING btree ("created_by_user_id");--> statement-breakpoint
CREATE INDEX "service_providers_type_idx" ON "service_providers" USING btree ("type");--> statement-breakpoint
CREATE INDEX "service_providers_title_idx" ON "service_providers" USING btree ("title");--> statement-breakpoint
CREATE INDEX "service_providers_created_by_idx" ON "service_providers" USING btree ("created_by_user_id");--> statement-breakpoint
CREATE INDEX "document_signing_parties_user_idx" ON "document_signing_parties" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "documents_created_by_idx" ON "documents" USING btree ("created_by_user_id");--> statement-breakpoint
CREATE INDEX "prescriptions_status_idx" ON "prescriptions" USING btree ("status");--> statement-breakpoint
CREATE INDEX "prescriptions_issuer_idx" ON "prescriptions" USING btree ("issuer_id");--> statement-breakpoint
CREATE INDEX "prescriptions_nurse_idx" ON "prescriptions" USING btree ("nurse_id");--> statement-breakpoint
CREATE INDEX "prescriptions_supplier_status_idx" ON "prescriptions" USING btree ("supplier_id","status");--> statement-breakpoint
CREATE INDEX "prescriptions_shipper_status_idx" ON "prescriptions" USING btree ("shipper_id","status");--> statement-breakpoint
CREATE INDEX "prescriptions_shipper_driver_idx" ON "prescriptions" USING btree ("shipper_driver_id");--> statement-breakpoint
CREATE INDEX "prescriptions_recipient_idx" ON "prescriptions" USING btree ("recipient_id");--> statement-breakpoint
CREATE INDEX "prescriptions_created_by_idx" ON "prescriptions" USING btree ("created_by_user_id");--> statement-breakpoint
CREATE INDEX "prescriptions_created_at_idx" ON "prescriptions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "patient_profiles_status_idx" ON "patient_profiles" USING btree ("status");--> statement-breakpoint
CREATE INDEX "patient_profiles_created_by_idx" ON "patient_profiles" USING btree ("created_by_user_id");--> statement-breakpoint
CREATE INDEX "patient_profiles_created_at_idx" ON "patient_profiles" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "user_assigned_nurses_nurse_idx" ON "user_assigned_nurses" USING btree ("nurse_id");--> statement-breakpoint
CREATE INDEX "user_employers_provider_idx" ON "user_employers" USING btree ("service_provider_id");--> statement-breakpoint
CREATE INDEX "users_local_roles_idx" ON "users" USING gin ("local_roles");--> statement-breakpoint
CREATE INDEX "users_roles_idx" ON "users" USING gin ("roles");--> statement-breakpoint
CREATE INDEX "users_created_at_idx" ON "users" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "users_last_name_idx" ON "users" USING btree ("last_name");--> statement-breakpoint
CREATE INDEX "users_first_name_idx" ON "users" USING btree ("first_name");--> statement-breakpoint
CREATE INDEX "users_email_idx" ON "users" USING btree ("email");--> statement-breakpoint
CREATE INDEX "users_created_by_idx" ON "users" USING btree ("created_by_user_id");