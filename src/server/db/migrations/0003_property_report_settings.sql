CREATE TABLE "property_report_settings" (
	"property_id" integer PRIMARY KEY NOT NULL,
	"landlord_type" text DEFAULT 'private' NOT NULL,
	"hot_water_share" numeric DEFAULT '0.25' NOT NULL,
	"hca_kwh_per_unit" numeric,
	"fuel_mix" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"network_year" integer,
	"network_co2_tonnes" numeric,
	"network_co2_gram_per_kwh" numeric,
	"primary_energy_factor" numeric,
	"fees" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"currency" text DEFAULT 'DKK' NOT NULL,
	"dispute_body_name" text,
	"dispute_body_url" text,
	"consumer_org_name" text,
	"consumer_org_url" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "property_report_settings_landlord_type" CHECK ("property_report_settings"."landlord_type" IN ('private', 'social')),
	CONSTRAINT "property_report_settings_hot_water_share" CHECK ("property_report_settings"."hot_water_share" BETWEEN 0 AND 0.9),
	CONSTRAINT "property_report_settings_hca_factor" CHECK ("property_report_settings"."hca_kwh_per_unit" IS NULL OR "property_report_settings"."hca_kwh_per_unit" > 0)
);
--> statement-breakpoint
ALTER TABLE "property_report_settings" ADD CONSTRAINT "property_report_settings_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;