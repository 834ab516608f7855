CREATE TABLE `analytics_day_counts` (
	`day` text PRIMARY KEY NOT NULL,
	`stored` integer NOT NULL,
	`refused` integer DEFAULT 0 NOT NULL
);
