CREATE TABLE `site_settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `orders` ADD `terms_accepted_at` integer;--> statement-breakpoint
ALTER TABLE `orders` ADD `terms_version` text;