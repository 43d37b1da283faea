CREATE TABLE "prescription_action_keys" (
	"user_id" uuid NOT NULL,
	"key" uuid NOT NULL,
	"prescription_id" uuid NOT NULL,
	"action" text NOT NULL,
	"fingerprint" text NOT NULL,
	"answer" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prescription_action_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
ALTER TABLE "prescription_action_keys" ADD CONSTRAINT "prescription_action_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescription_action_keys" ADD CONSTRAINT "prescription_action_keys_prescription_id_prescriptions_id_fk" FOREIGN KEY ("prescription_id") REFERENCES "public"."prescriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "prescription_action_keys_created_at_idx" ON "prescription_action_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "prescription_action_keys_prescription_idx" ON "prescription_action_keys" USING btree ("prescription_id");