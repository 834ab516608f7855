CREATE TABLE `content_draft` (
	`id` integer PRIMARY KEY NOT NULL,
	`document` text NOT NULL,
	`base_version` integer NOT NULL,
	`revision` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`updated_by` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `content_versions` (
	`version` integer PRIMARY KEY NOT NULL,
	`document` text NOT NULL,
	`published_at` integer NOT NULL,
	`published_by` text NOT NULL,
	`changes` text NOT NULL,
	`restored_from` integer
);
--> statement-breakpoint
CREATE TABLE `price_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`price_minor` integer NOT NULL,
	`currency` text NOT NULL,
	`since` integer NOT NULL,
	`version` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `price_history_since` ON `price_history` (`since`);