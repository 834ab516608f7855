CREATE TABLE `owner_digests` (
	`period` text PRIMARY KEY NOT NULL,
	`frequency` text NOT NULL,
	`mail_id` integer NOT NULL,
	`queued_at` integer NOT NULL,
	`by_hand` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `owner_sessions` ADD `locale` text;