ALTER TABLE "daily_rollups" ADD COLUMN "estimated" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "hourly_consumption" ADD COLUMN "estimated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "monthly_rollups" ADD COLUMN "estimated" integer DEFAULT 0 NOT NULL;