CREATE TABLE "document_completed_signatures" (
	"certificate_fingerprint" text NOT NULL,
	"revision_sha256" text NOT NULL,
	"signing_time" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_completed_signatures_certificate_fingerprint_revision_sha256_pk" PRIMARY KEY("certificate_fingerprint","revision_sha256")
);
--> statement-breakpoint
-- The signatures completed before this table existed, as their documents recorded them.
INSERT INTO "document_completed_signatures" ("certificate_fingerprint", "revision_sha256", "signing_time")
SELECT DISTINCT ON (entry->>'certificateSha256', entry->>'revisionSha256')
  entry->>'certificateSha256', entry->>'revisionSha256', (entry->>'signedAt')::timestamptz
FROM "documents",
  jsonb_array_elements(CASE WHEN jsonb_typeof("documents"."signing_parties_metadata") = 'array'
    THEN "documents"."signing_parties_metadata" ELSE '[]'::jsonb END) AS entry
WHERE entry->>'method' = 'authenticator'
  AND entry->>'certificateSha256' ~ '^[0-9a-f]{64}$'
  AND entry->>'revisionSha256' ~ '^[0-9a-f]{64}$'
  AND entry->>'signedAt' ~ '^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$'
ON CONFLICT DO NOTHING;
