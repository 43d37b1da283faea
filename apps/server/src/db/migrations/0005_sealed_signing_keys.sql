ALTER TABLE "auth_signing_keys" ALTER COLUMN "private_jwk" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "auth_signing_keys" ADD COLUMN "private_jwk_sealed" text;