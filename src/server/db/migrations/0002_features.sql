CREATE TABLE "alarm_evaluations" (
	"alarm_id" integer NOT NULL,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"state" text NOT NULL,
	"value" numeric,
	"reference" numeric,
	"reason" text,
	"evaluated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "alarm_evaluations_alarm_id_period_start_pk" PRIMARY KEY("alarm_id","period_start")
);
--> statement-breakpoint
CREATE TABLE "alarms" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"tenancy_id" integer NOT NULL,
	"type" text NOT NULL,
	"quantity" text NOT NULL,
	"frequency" text NOT NULL,
	"threshold" numeric,
	"minimum" numeric,
	"maximum" numeric,
	"leak_rule" boolean DEFAULT false NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
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
CREATE TABLE "impersonations" (
	"id" serial PRIMARY KEY NOT NULL,
	"operator" text NOT NULL,
	"user_id" integer,
	"user_email" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"token_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"task" text NOT NULL,
	"key" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
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
CREATE TABLE "notifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"tenancy_id" integer NOT NULL,
	"kind" text NOT NULL,
	"alarm_id" integer,
	"quantity" text,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"frequency" text NOT NULL,
	"value" numeric,
	"reference" numeric,
	"reason" text,
	"details" jsonb,
	"key" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"read_at" timestamp with time zone,
	"mailed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "one_time_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"new_email" text,
	"session_ends_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
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
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "report_lookup_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer NOT NULL,
	"expire" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "activation_codes" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "html" text;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN "session_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "tokens_valid_after" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alarm_evaluations" ADD CONSTRAINT "alarm_evaluations_alarm_id_alarms_id_fk" FOREIGN KEY ("alarm_id") REFERENCES "public"."alarms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_tenancy_id_tenancies_id_fk" FOREIGN KEY ("tenancy_id") REFERENCES "public"."tenancies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "allocation_statements" ADD CONSTRAINT "allocation_statements_tenancy_id_tenancies_id_fk" FOREIGN KEY ("tenancy_id") REFERENCES "public"."tenancies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fixed_charges" ADD CONSTRAINT "fixed_charges_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "impersonations" ADD CONSTRAINT "impersonations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monthly_reports" ADD CONSTRAINT "monthly_reports_tenancy_id_tenancies_id_fk" FOREIGN KEY ("tenancy_id") REFERENCES "public"."tenancies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_tenancy_id_tenancies_id_fk" FOREIGN KEY ("tenancy_id") REFERENCES "public"."tenancies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_alarm_id_alarms_id_fk" FOREIGN KEY ("alarm_id") REFERENCES "public"."alarms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "one_time_tokens" ADD CONSTRAINT "one_time_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "property_degree_days" ADD CONSTRAINT "property_degree_days_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alarms_user_tenancy_idx" ON "alarms" USING btree ("user_id","tenancy_id");--> statement-breakpoint
CREATE UNIQUE INDEX "allocation_statements_period_uq" ON "allocation_statements" USING btree ("tenancy_id","period_start","period_end");--> statement-breakpoint
CREATE INDEX "fixed_charges_property_idx" ON "fixed_charges" USING btree ("property_id","valid_from");--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_key_uq" ON "jobs" USING btree ("key");--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("status","run_at");--> statement-breakpoint
CREATE UNIQUE INDEX "monthly_reports_code_uq" ON "monthly_reports" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "monthly_reports_tenancy_month_uq" ON "monthly_reports" USING btree ("tenancy_id","month");--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_key_uq" ON "notifications" USING btree ("key");--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "one_time_tokens_hash_uq" ON "one_time_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "one_time_tokens_user_idx" ON "one_time_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "refresh_tokens_user_idx" ON "refresh_tokens" USING btree ("user_id");