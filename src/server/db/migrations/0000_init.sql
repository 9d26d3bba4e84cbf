CREATE TABLE "accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activation_codes" (
	"code" text PRIMARY KEY NOT NULL,
	"tenancy_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone,
	"used_by_user_id" integer
);
--> statement-breakpoint
CREATE TABLE "apartments" (
	"id" serial PRIMARY KEY NOT NULL,
	"property_id" integer NOT NULL,
	"unique_id" text NOT NULL,
	"apartment" text NOT NULL,
	"address" text NOT NULL,
	"zipcode" text NOT NULL,
	"city" text NOT NULL,
	"area_m2" numeric NOT NULL,
	"rooms" integer NOT NULL,
	CONSTRAINT "apartments_unique_id_unique" UNIQUE("unique_id")
);
--> statement-breakpoint
CREATE TABLE "app_meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "daily_rollups" (
	"measurement_point_id" integer NOT NULL,
	"day" date NOT NULL,
	"sum" numeric NOT NULL,
	"min" numeric NOT NULL,
	"max" numeric NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "daily_rollups_measurement_point_id_day_pk" PRIMARY KEY("measurement_point_id","day")
);
--> statement-breakpoint
CREATE TABLE "hourly_consumption" (
	"measurement_point_id" integer NOT NULL,
	"hour_start" timestamp with time zone NOT NULL,
	"value" numeric NOT NULL,
	CONSTRAINT "hourly_consumption_measurement_point_id_hour_start_pk" PRIMARY KEY("measurement_point_id","hour_start")
);
--> statement-breakpoint
CREATE TABLE "invitations" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenancy_id" integer NOT NULL,
	"email" text NOT NULL,
	"invited_by_user_id" integer,
	"activation_code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"accepted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "measurement_points" (
	"id" serial PRIMARY KEY NOT NULL,
	"property_id" integer NOT NULL,
	"apartment_id" integer,
	"quantity" text NOT NULL,
	"unit" text NOT NULL,
	"room" text,
	"name" text NOT NULL,
	"legacy_meter_id" text,
	"reading_kind" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meters" (
	"id" serial PRIMARY KEY NOT NULL,
	"measurement_point_id" integer NOT NULL,
	"number" text NOT NULL,
	"legacy_kind" text NOT NULL,
	"installed_at" timestamp with time zone NOT NULL,
	"removed_at" timestamp with time zone,
	CONSTRAINT "meters_number_unique" UNIQUE("number")
);
--> statement-breakpoint
CREATE TABLE "monthly_rollups" (
	"measurement_point_id" integer NOT NULL,
	"month" date NOT NULL,
	"sum" numeric NOT NULL,
	"min" numeric NOT NULL,
	"max" numeric NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "monthly_rollups_measurement_point_id_month_pk" PRIMARY KEY("measurement_point_id","month")
);
--> statement-breakpoint
CREATE TABLE "permissions" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	CONSTRAINT "permissions_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "prices" (
	"id" serial PRIMARY KEY NOT NULL,
	"property_id" integer NOT NULL,
	"quantity" text NOT NULL,
	"price" numeric NOT NULL,
	"currency" text NOT NULL,
	"valid_from" date NOT NULL,
	"valid_to" date
);
--> statement-breakpoint
CREATE TABLE "properties" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"number" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"address" text NOT NULL,
	"zipcode" text NOT NULL,
	"city" text NOT NULL,
	"country" text DEFAULT 'DK' NOT NULL,
	"contact_phone" text,
	"contact_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "properties_number_unique" UNIQUE("number")
);
--> statement-breakpoint
CREATE TABLE "property_co2_factors" (
	"property_id" integer NOT NULL,
	"quantity" text NOT NULL,
	"gram_per_quantity_unit" numeric NOT NULL,
	CONSTRAINT "property_co2_factors_property_id_quantity_pk" PRIMARY KEY("property_id","quantity")
);
--> statement-breakpoint
CREATE TABLE "property_daily_rollups" (
	"property_id" integer NOT NULL,
	"quantity" text NOT NULL,
	"day" date NOT NULL,
	"sum" numeric NOT NULL,
	"area_m2" numeric NOT NULL,
	"per_m2" numeric NOT NULL,
	"count" integer NOT NULL,
	"apartments" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "property_daily_rollups_property_id_quantity_day_pk" PRIMARY KEY("property_id","quantity","day")
);
--> statement-breakpoint
CREATE TABLE "property_settings" (
	"property_id" integer NOT NULL,
	"kind" text NOT NULL,
	CONSTRAINT "property_settings_property_id_kind_pk" PRIMARY KEY("property_id","kind")
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"backend" text NOT NULL,
	"user_id" integer NOT NULL,
	"family_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "register_readings" (
	"meter_id" integer NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"value" numeric NOT NULL,
	CONSTRAINT "register_readings_meter_id_ts_pk" PRIMARY KEY("meter_id","ts")
);
--> statement-breakpoint
CREATE TABLE "tenancies" (
	"id" serial PRIMARY KEY NOT NULL,
	"apartment_id" integer NOT NULL,
	"tenancy_id" text NOT NULL,
	"tenant" text DEFAULT '' NOT NULL,
	"start" date NOT NULL,
	"end" date,
	"use_new_backend" boolean DEFAULT true NOT NULL,
	"billing_start" date,
	"billing_end" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tenancies_tenancy_id_unique" UNIQUE("tenancy_id")
);
--> statement-breakpoint
CREATE TABLE "tenancy_members" (
	"tenancy_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"is_admin" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tenancy_members_tenancy_id_user_id_pk" PRIMARY KEY("tenancy_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "user_accounts" (
	"user_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	CONSTRAINT "user_accounts_user_id_account_id_pk" PRIMARY KEY("user_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "user_permissions" (
	"user_id" integer NOT NULL,
	"permission_id" integer NOT NULL,
	CONSTRAINT "user_permissions_user_id_permission_id_pk" PRIMARY KEY("user_id","permission_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"password_hash" text,
	"language" text DEFAULT 'en' NOT NULL,
	"is_superuser" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_admin" boolean DEFAULT false NOT NULL,
	"user_type" text DEFAULT 'email' NOT NULL,
	"email_notifications" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activation_codes" ADD CONSTRAINT "activation_codes_tenancy_id_tenancies_id_fk" FOREIGN KEY ("tenancy_id") REFERENCES "public"."tenancies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activation_codes" ADD CONSTRAINT "activation_codes_used_by_user_id_users_id_fk" FOREIGN KEY ("used_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "apartments" ADD CONSTRAINT "apartments_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_rollups" ADD CONSTRAINT "daily_rollups_measurement_point_id_measurement_points_id_fk" FOREIGN KEY ("measurement_point_id") REFERENCES "public"."measurement_points"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hourly_consumption" ADD CONSTRAINT "hourly_consumption_measurement_point_id_measurement_points_id_fk" FOREIGN KEY ("measurement_point_id") REFERENCES "public"."measurement_points"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_tenancy_id_tenancies_id_fk" FOREIGN KEY ("tenancy_id") REFERENCES "public"."tenancies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_invited_by_user_id_users_id_fk" FOREIGN KEY ("invited_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measurement_points" ADD CONSTRAINT "measurement_points_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measurement_points" ADD CONSTRAINT "measurement_points_apartment_id_apartments_id_fk" FOREIGN KEY ("apartment_id") REFERENCES "public"."apartments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_measurement_point_id_measurement_points_id_fk" FOREIGN KEY ("measurement_point_id") REFERENCES "public"."measurement_points"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monthly_rollups" ADD CONSTRAINT "monthly_rollups_measurement_point_id_measurement_points_id_fk" FOREIGN KEY ("measurement_point_id") REFERENCES "public"."measurement_points"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prices" ADD CONSTRAINT "prices_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "property_co2_factors" ADD CONSTRAINT "property_co2_factors_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "property_daily_rollups" ADD CONSTRAINT "property_daily_rollups_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "property_settings" ADD CONSTRAINT "property_settings_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "register_readings" ADD CONSTRAINT "register_readings_meter_id_meters_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenancies" ADD CONSTRAINT "tenancies_apartment_id_apartments_id_fk" FOREIGN KEY ("apartment_id") REFERENCES "public"."apartments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenancy_members" ADD CONSTRAINT "tenancy_members_tenancy_id_tenancies_id_fk" FOREIGN KEY ("tenancy_id") REFERENCES "public"."tenancies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenancy_members" ADD CONSTRAINT "tenancy_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_accounts" ADD CONSTRAINT "user_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_accounts" ADD CONSTRAINT "user_accounts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_permissions" ADD CONSTRAINT "user_permissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_permissions" ADD CONSTRAINT "user_permissions_permission_id_permissions_id_fk" FOREIGN KEY ("permission_id") REFERENCES "public"."permissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "apartments_property_idx" ON "apartments" USING btree ("property_id");--> statement-breakpoint
CREATE INDEX "invitations_tenancy_idx" ON "invitations" USING btree ("tenancy_id");--> statement-breakpoint
CREATE INDEX "mpoints_apartment_idx" ON "measurement_points" USING btree ("apartment_id","quantity");--> statement-breakpoint
CREATE INDEX "mpoints_property_idx" ON "measurement_points" USING btree ("property_id","quantity");--> statement-breakpoint
CREATE INDEX "meters_mpoint_idx" ON "meters" USING btree ("measurement_point_id");--> statement-breakpoint
CREATE INDEX "prices_property_quantity_idx" ON "prices" USING btree ("property_id","quantity","valid_from");--> statement-breakpoint
CREATE UNIQUE INDEX "refresh_tokens_hash_uq" ON "refresh_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "refresh_tokens_family_idx" ON "refresh_tokens" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "tenancies_apartment_idx" ON "tenancies" USING btree ("apartment_id");--> statement-breakpoint
CREATE INDEX "tenancy_members_user_idx" ON "tenancy_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_uq" ON "users" USING btree ("email");