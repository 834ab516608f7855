CREATE TABLE `partners` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`commission` integer,
	`code` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `partners_name_unique` ON `partners` (`name`);--> statement-breakpoint
ALTER TABLE `orders` ADD `partner` text;--> statement-breakpoint
CREATE INDEX `orders_partner_idx` ON `orders` (`partner`,`paid_at`);