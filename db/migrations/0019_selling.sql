CREATE TABLE `discount_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`kind` text NOT NULL,
	`value` integer NOT NULL,
	`starts_at` integer,
	`ends_at` integer,
	`max_uses` integer,
	`note` text,
	`created_at` integer NOT NULL,
	`disabled_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `discount_codes_code_unique` ON `discount_codes` (`code`);--> statement-breakpoint
CREATE TABLE `payment_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`checkout_id` text NOT NULL,
	`provider` text NOT NULL,
	`outcome` text NOT NULL,
	`reason` text NOT NULL,
	`email` text,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `payment_attempts_checkout_idx` ON `payment_attempts` (`checkout_id`);--> statement-breakpoint
CREATE INDEX `payment_attempts_at_idx` ON `payment_attempts` (`at`);--> statement-breakpoint
DROP INDEX `invoices_sequence_unique`;--> statement-breakpoint
ALTER TABLE `invoices` ADD `series` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `invoices` ADD `vat_rule` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `seller_vat_number` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `list_amount` integer;--> statement-breakpoint
ALTER TABLE `invoices` ADD `discount_code` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `discount_amount` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_series_sequence_unique` ON `invoices` (`series`,`kind`,`year`,`sequence`);--> statement-breakpoint
ALTER TABLE `orders` ADD `list_amount` integer;--> statement-breakpoint
ALTER TABLE `orders` ADD `discount_code` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `discount_amount` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `orders_discount_code_idx` ON `orders` (`discount_code`,`status`);--> statement-breakpoint
ALTER TABLE `test_checkout_sessions` ADD `free` integer DEFAULT false NOT NULL;