CREATE TABLE "fixed_charges" (
	"id" serial PRIMARY KEY NOT NULL,
	"property_id" integer NOT NULL,
	"kind" text NOT NULL,
	"quantity" text,
	"amount_per_year" numeric NOT NULL,
	"currency" text NOT NULL,
	"valid_from" date NOT NULL,
	"valid_to" date,
	CONSTRAINT "fixed_charges_amount_nonnegative" CHECK ("fixed_charges"."amount_per_year" >= 0)
);
--> statement-breakpoint
CREATE TABLE "property_degree_days" (
	"property_id" integer NOT NULL,
	"day" date NOT NULL,
	"mean_temperature" numeric NOT NULL,
	"degree_days" numeric NOT NULL,
	"hours" integer NOT NULL,
	CONSTRAINT "property_degree_days_property_id_day_pk" PRIMARY KEY("property_id","day")
);
--> statement-breakpoint
ALTER TABLE "fixed_charges" ADD CONSTRAINT "fixed_charges_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "property_degree_days" ADD CONSTRAINT "property_degree_days_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fixed_charges_property_idx" ON "fixed_charges" USING btree ("property_id","valid_from");