CREATE TABLE "document_certificate_authority" (
	"id" text PRIMARY KEY NOT NULL,
	"certificate_pem" text NOT NULL,
	"encrypted_private_key_pem" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_files" (
	"sha256" text PRIMARY KEY NOT NULL,
	"size" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_signer_certificates" (
	"fingerprint" text PRIMARY KEY NOT NULL,
	"key_id" text NOT NULL,
	"identity_id" uuid NOT NULL,
	"serial_number" text NOT NULL,
	"der" "bytea" NOT NULL,
	"not_before" timestamp with time zone NOT NULL,
	"not_after" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_signing_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"document_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"identity_id" uuid NOT NULL,
	"key_id" text NOT NULL,
	"certificate_fingerprint" text NOT NULL,
	"base_sha256" text NOT NULL,
	"signing_time" timestamp with time zone NOT NULL,
	"signer_name" text NOT NULL,
	"signed_attributes" "bytea" NOT NULL,
	"binding_message" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"failure" text,
	"expires_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auth_requests" ADD COLUMN "document_signature" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "original_sha256" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "signed_sha256" text;--> statement-breakpoint
ALTER TABLE "document_signing_requests" ADD CONSTRAINT "document_signing_requests_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_signing_requests" ADD CONSTRAINT "document_signing_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_signing_requests" ADD CONSTRAINT "document_signing_requests_certificate_fk" FOREIGN KEY ("certificate_fingerprint") REFERENCES "public"."document_signer_certificates"("fingerprint") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_signer_certificates_key_idx" ON "document_signer_certificates" USING btree ("key_id","not_after");--> statement-breakpoint
CREATE INDEX "document_signing_requests_document_idx" ON "document_signing_requests" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "document_signing_requests_user_idx" ON "document_signing_requests" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_original_sha256_document_files_sha256_fk" FOREIGN KEY ("original_sha256") REFERENCES "public"."document_files"("sha256") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_signed_sha256_document_files_sha256_fk" FOREIGN KEY ("signed_sha256") REFERENCES "public"."document_files"("sha256") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "documents_original_sha256_idx" ON "documents" USING btree ("original_sha256");--> statement-breakpoint
CREATE INDEX "documents_signed_sha256_idx" ON "documents" USING btree ("signed_sha256");--> statement-breakpoint
-- PDFs are compressed already: kept uncompressed out of line, a download reads them in slices (substring).
ALTER TABLE "document_files" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;