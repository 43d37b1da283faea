ALTER TABLE "prescription_signings" ADD COLUMN "status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "prescription_signings" ADD COLUMN "failure" text;--> statement-breakpoint
ALTER TABLE "prescription_signings" ADD COLUMN "completed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "document_signing_requests_pending_idx" ON "document_signing_requests" USING btree ("created_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "prescription_signings_pending_idx" ON "prescription_signings" USING btree ("created_at") WHERE status = 'pending';--> statement-breakpoint
-- Actions whose receipt is already on the prescription were completed by a poll before this change.
UPDATE "prescription_signings" SET "status" = 'signed', "completed_at" = now() FROM "prescriptions" p WHERE p."id" = "prescription_signings"."prescription_id" AND "prescription_signings"."document_id" IN (p."issuer_receipt_id", p."pickup_receipt_id");
