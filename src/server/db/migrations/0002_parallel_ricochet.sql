CREATE TABLE "allocation_statements" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenancy_id" integer NOT NULL,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"currency" text NOT NULL,
	"fixed_share_percent" numeric NOT NULL,
	"variable_share_percent" numeric NOT NULL,
	"fixed_amount" numeric NOT NULL,
	"variable_amount" numeric NOT NULL,
	"advance_payments" numeric NOT NULL,
	"balance" numeric NOT NULL,
	"objection_deadline" date NOT NULL,
	"details" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "allocation_statements_period_order" CHECK ("allocation_statements"."period_start" <= "allocation_statements"."period_end")
);
--> statement-breakpoint
CREATE TABLE "monthly_reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"tenancy_id" integer NOT NULL,
	"month" date NOT NULL,
	"language" text NOT NULL,
	"content" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_lookup_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer NOT NULL,
	"expire" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "allocation_statements" ADD CONSTRAINT "allocation_statements_tenancy_id_tenancies_id_fk" FOREIGN KEY ("tenancy_id") REFERENCES "public"."tenancies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monthly_reports" ADD CONSTRAINT "monthly_reports_tenancy_id_tenancies_id_fk" FOREIGN KEY ("tenancy_id") REFERENCES "public"."tenancies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "allocation_statements_period_uq" ON "allocation_statements" USING btree ("tenancy_id","period_start","period_end");--> statement-breakpoint
CREATE UNIQUE INDEX "monthly_reports_code_uq" ON "monthly_reports" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "monthly_reports_tenancy_month_uq" ON "monthly_reports" USING btree ("tenancy_id","month");