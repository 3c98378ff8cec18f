ALTER TABLE "member_eligibility_counted" ADD COLUMN "done" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "member_eligibility_counted" ADD COLUMN "counted_through" text;