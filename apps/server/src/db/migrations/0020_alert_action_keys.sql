CREATE TABLE "alert_action_keys" (
	"user_id" uuid NOT NULL,
	"key" uuid NOT NULL,
	"alert_id" uuid NOT NULL,
	"action" text NOT NULL,
	"fingerprint" text NOT NULL,
	"answer" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_action_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
ALTER TABLE "alert_action_keys" ADD CONSTRAINT "alert_action_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_action_keys" ADD CONSTRAINT "alert_action_keys_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_action_keys_created_at_idx" ON "alert_action_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "alert_action_keys_alert_idx" ON "alert_action_keys" USING btree ("alert_id");