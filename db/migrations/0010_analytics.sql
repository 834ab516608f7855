CREATE TABLE `analytics_daily` (
	`day` text NOT NULL,
	`dimension` text NOT NULL,
	`key` text NOT NULL,
	`visitors` integer NOT NULL,
	`hits` integer NOT NULL,
	`payment_visitors` integer NOT NULL,
	PRIMARY KEY(`day`, `dimension`, `key`)
);
--> statement-breakpoint
CREATE TABLE `analytics_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`day` text NOT NULL,
	`at` integer NOT NULL,
	`visitor` text NOT NULL,
	`kind` text NOT NULL,
	`page` text NOT NULL,
	`locale` text NOT NULL,
	`source` text NOT NULL,
	`campaign` text,
	`medium` text,
	`device` text NOT NULL,
	`metric` text,
	`value` real
);
--> statement-breakpoint
CREATE INDEX `analytics_events_day_kind_idx` ON `analytics_events` (`day`,`kind`,`at`);--> statement-breakpoint
CREATE TABLE `analytics_vitals_daily` (
	`day` text NOT NULL,
	`page` text NOT NULL,
	`device` text NOT NULL,
	`metric` text NOT NULL,
	`bucket` integer NOT NULL,
	`samples` integer NOT NULL,
	PRIMARY KEY(`day`, `page`, `device`, `metric`, `bucket`)
);
--> statement-breakpoint
CREATE TABLE `checkout_visits` (
	`checkout_id` text PRIMARY KEY NOT NULL,
	`day` text NOT NULL,
	`at` integer NOT NULL,
	`visitor` text,
	`source` text,
	`campaign` text,
	`locale` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `checkout_visits_day_idx` ON `checkout_visits` (`day`);