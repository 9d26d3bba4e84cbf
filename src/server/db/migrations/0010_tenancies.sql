CREATE TABLE "operator_invitations" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenancy_id" integer NOT NULL,
	"property_id" integer NOT NULL,
	"batch_id" integer,
	"line" integer,
	"email" text,
	"activation_code" text NOT NULL,
	"mail_outbox_id" integer,
	"mail_error" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_sent_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "tenancy_interim_readings" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenancy_id" integer NOT NULL,
	"meter_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"value" numeric,
	"reading_ts" timestamp with time zone,
	"source" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "move_out_grace_months" integer DEFAULT 12 NOT NULL;--> statement-breakpoint
ALTER TABLE "operator_invitations" ADD CONSTRAINT "operator_invitations_tenancy_id_tenancies_id_fk" FOREIGN KEY ("tenancy_id") REFERENCES "public"."tenancies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_invitations" ADD CONSTRAINT "operator_invitations_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenancy_interim_readings" ADD CONSTRAINT "tenancy_interim_readings_tenancy_id_tenancies_id_fk" FOREIGN KEY ("tenancy_id") REFERENCES "public"."tenancies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenancy_interim_readings" ADD CONSTRAINT "tenancy_interim_readings_meter_id_meters_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "operator_invitations_property_idx" ON "operator_invitations" USING btree ("property_id","id");--> statement-breakpoint
CREATE INDEX "operator_invitations_batch_idx" ON "operator_invitations" USING btree ("batch_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tenancy_interim_readings_uq" ON "tenancy_interim_readings" USING btree ("tenancy_id","meter_id");--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_move_out_grace" CHECK ("accounts"."move_out_grace_months" BETWEEN 0 AND 120);