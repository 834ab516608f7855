CREATE TABLE `catalogue_sets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`titles` integer NOT NULL,
	`created_at` integer NOT NULL,
	`created_by` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `catalogue_titles` (
	`set_id` integer NOT NULL,
	`position` integer NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`year` integer,
	`category` text NOT NULL,
	`poster_id` text,
	`featured` integer NOT NULL,
	PRIMARY KEY(`set_id`, `position`)
);
--> statement-breakpoint
CREATE TABLE `media` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`width` integer,
	`height` integer,
	`seconds` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `media_files` (
	`name` text PRIMARY KEY NOT NULL,
	`media_id` text NOT NULL,
	`content_type` text NOT NULL,
	`width` integer,
	`size` integer NOT NULL,
	`bytes` blob NOT NULL
);
--> statement-breakpoint
CREATE INDEX `media_files_media` ON `media_files` (`media_id`);