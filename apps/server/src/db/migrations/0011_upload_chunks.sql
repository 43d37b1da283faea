CREATE TABLE "document_upload_chunks" (
	"upload_id" uuid NOT NULL,
	"index" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_upload_chunks_upload_id_index_pk" PRIMARY KEY("upload_id","index")
);
--> statement-breakpoint
CREATE INDEX "document_upload_chunks_created_at_idx" ON "document_upload_chunks" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "document_upload_chunks" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;
