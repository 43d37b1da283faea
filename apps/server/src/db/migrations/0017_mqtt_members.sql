CREATE TABLE "mqtt_members" (
	"client_id" text PRIMARY KEY NOT NULL,
	"presence" text NOT NULL,
	"connections" integer NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
