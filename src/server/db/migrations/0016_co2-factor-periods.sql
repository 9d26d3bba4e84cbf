-- CO₂ factors get validity dates, as prices (issue 21). The factors so far stay valid from the beginning
-- (valid_from NULL) and open-ended (valid_to NULL); a series has at most one period per start (NULLS NOT DISTINCT).
ALTER TABLE "property_co2_factors" DROP CONSTRAINT "property_co2_factors_property_id_quantity_pk";--> statement-breakpoint
ALTER TABLE "property_co2_factors" ADD COLUMN "id" serial PRIMARY KEY NOT NULL;--> statement-breakpoint
ALTER TABLE "property_co2_factors" ADD COLUMN "valid_from" date;--> statement-breakpoint
ALTER TABLE "property_co2_factors" ADD COLUMN "valid_to" date;--> statement-breakpoint
ALTER TABLE "property_co2_factors" ADD CONSTRAINT "property_co2_factors_series_start_uq" UNIQUE NULLS NOT DISTINCT("property_id","quantity","valid_from");
