CREATE TABLE "api_key_properties" (
	"api_key_id" integer NOT NULL,
	"property_id" integer NOT NULL,
	CONSTRAINT "api_key_properties_api_key_id_property_id_pk" PRIMARY KEY("api_key_id","property_id")
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"secret_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "data_issues" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"meter_id" integer NOT NULL,
	"property_id" integer NOT NULL,
	"reading_ts" timestamp with time zone NOT NULL,
	"reading_value" numeric,
	"evidence" jsonb NOT NULL,
	"source" text NOT NULL,
	"resolution" text,
	"resolved_by" text,
	"resolved_at" timestamp with time zone,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ingest_batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"api_key_id" integer NOT NULL,
	"idempotency_key" text,
	"body_sha256" text NOT NULL,
	"atomic" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"row_count" integer NOT NULL,
	"rows" jsonb,
	"receipt" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "meters" ADD COLUMN "radio_id" text;--> statement-breakpoint
ALTER TABLE "meters" ADD COLUMN "rollover_digits" integer;--> statement-breakpoint
ALTER TABLE "meters" ADD COLUMN "reset_on" text;--> statement-breakpoint
ALTER TABLE "api_key_properties" ADD CONSTRAINT "api_key_properties_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_key_properties" ADD CONSTRAINT "api_key_properties_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_issues" ADD CONSTRAINT "data_issues_meter_id_meters_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_issues" ADD CONSTRAINT "data_issues_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ingest_batches" ADD CONSTRAINT "ingest_batches_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_secret_hash_uq" ON "api_keys" USING btree ("secret_hash");--> statement-breakpoint
CREATE INDEX "data_issues_meter_idx" ON "data_issues" USING btree ("meter_id","reading_ts");--> statement-breakpoint
CREATE INDEX "data_issues_property_idx" ON "data_issues" USING btree ("property_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "data_issues_open_finding_uq" ON "data_issues" USING btree ("meter_id","kind") WHERE status = 'open' AND kind IN ('stuck', 'silent');--> statement-breakpoint
CREATE UNIQUE INDEX "data_issues_open_reading_uq" ON "data_issues" USING btree ("meter_id","reading_ts") WHERE status = 'open' AND kind IN ('drop', 'digit-shift', 'jump');--> statement-breakpoint
CREATE UNIQUE INDEX "ingest_batches_idem_uq" ON "ingest_batches" USING btree ("api_key_id","idempotency_key");--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_radio_id_unique" UNIQUE("radio_id");--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_rollover_digits" CHECK ("meters"."rollover_digits" BETWEEN 1 AND 12);--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_reset_on" CHECK ("meters"."reset_on" ~ '^(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$');