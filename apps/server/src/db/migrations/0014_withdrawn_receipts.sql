ALTER TABLE "prescription_signings" DROP CONSTRAINT "prescription_signings_document_id_documents_id_fk";
--> statement-breakpoint
ALTER TABLE "prescription_signings" ALTER COLUMN "document_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "prescription_signings" ADD CONSTRAINT "prescription_signings_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE set null ON UPDATE no action;