CREATE TABLE `approved_places` (
	`key` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`approved_at` integer NOT NULL
);
--> statement-breakpoint
DROP INDEX `email_leads_email_source_unique`;--> statement-breakpoint
CREATE UNIQUE INDEX `email_leads_email_unique` ON `email_leads` (`email`);