CREATE TABLE "auth_authenticator_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"identity_id" uuid NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"label" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "auth_enrollment_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"identity_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"key_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auth_enrollment_codes_code_hash_unique" UNIQUE("code_hash")
);
--> statement-breakpoint
CREATE TABLE "auth_identities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"username" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text,
	"phone_number" text,
	"title" text,
	"assurance_level" text DEFAULT 'low' NOT NULL,
	"roles" text[] DEFAULT '{}'::text[] NOT NULL,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auth_identities_username_unique" UNIQUE("username")
);
--> statement-breakpoint
CREATE TABLE "auth_oidc_payloads" (
	"model" text NOT NULL,
	"id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"grant_id" text,
	"user_code" text,
	"uid" text,
	"expires_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	"polled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auth_oidc_payloads_model_id_pk" PRIMARY KEY("model","id")
);
--> statement-breakpoint
CREATE TABLE "auth_qr_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"secret_hash" text NOT NULL,
	"previous_secret_hash" text,
	"secret_issued_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"identity_id" uuid,
	"auth_req_id" text,
	"binding_message" text,
	"expires_at" timestamp with time zone NOT NULL,
	"claimed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"identity_id" uuid,
	"client_id" text NOT NULL,
	"binding_message" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"auth_req_id" text,
	"nonce" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"key_id" text,
	"signed_payload" text,
	"signature" text,
	"polled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auth_requests_auth_req_id_unique" UNIQUE("auth_req_id")
);
--> statement-breakpoint
CREATE TABLE "auth_signing_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"private_jwk" jsonb NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone,
	"publish_until" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "auth_authenticator_keys" ADD CONSTRAINT "auth_authenticator_keys_identity_id_auth_identities_id_fk" FOREIGN KEY ("identity_id") REFERENCES "public"."auth_identities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_enrollment_codes" ADD CONSTRAINT "auth_enrollment_codes_identity_id_auth_identities_id_fk" FOREIGN KEY ("identity_id") REFERENCES "public"."auth_identities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_qr_sessions" ADD CONSTRAINT "auth_qr_sessions_identity_id_auth_identities_id_fk" FOREIGN KEY ("identity_id") REFERENCES "public"."auth_identities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_requests" ADD CONSTRAINT "auth_requests_identity_id_auth_identities_id_fk" FOREIGN KEY ("identity_id") REFERENCES "public"."auth_identities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auth_authenticator_keys_identity_idx" ON "auth_authenticator_keys" USING btree ("identity_id");--> statement-breakpoint
CREATE INDEX "auth_enrollment_codes_identity_idx" ON "auth_enrollment_codes" USING btree ("identity_id");--> statement-breakpoint
CREATE INDEX "auth_identities_created_at_idx" ON "auth_identities" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "auth_oidc_payloads_grant_idx" ON "auth_oidc_payloads" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "auth_oidc_payloads_uid_idx" ON "auth_oidc_payloads" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "auth_oidc_payloads_user_code_idx" ON "auth_oidc_payloads" USING btree ("user_code");--> statement-breakpoint
CREATE INDEX "auth_oidc_payloads_expires_at_idx" ON "auth_oidc_payloads" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "auth_qr_sessions_secret_idx" ON "auth_qr_sessions" USING btree ("secret_hash");--> statement-breakpoint
CREATE INDEX "auth_qr_sessions_previous_secret_idx" ON "auth_qr_sessions" USING btree ("previous_secret_hash");--> statement-breakpoint
CREATE INDEX "auth_qr_sessions_expires_at_idx" ON "auth_qr_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "auth_requests_identity_status_idx" ON "auth_requests" USING btree ("identity_id","status");--> statement-breakpoint
CREATE INDEX "auth_requests_expires_at_idx" ON "auth_requests" USING btree ("expires_at");