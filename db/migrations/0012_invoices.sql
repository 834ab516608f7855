CREATE TABLE `invoices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`order_id` integer NOT NULL,
	`kind` text NOT NULL,
	`number` text NOT NULL,
	`year` integer NOT NULL,
	`sequence` integer NOT NULL,
	`issued_at` integer NOT NULL,
	`credits_invoice_id` integer,
	`vat_scheme` text NOT NULL,
	`vat_country` text,
	`vat_rate` integer NOT NULL,
	`net_amount` integer NOT NULL,
	`vat_amount` integer NOT NULL,
	`total_amount` integer NOT NULL,
	`currency` text NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_number_unique` ON `invoices` (`number`);--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_sequence_unique` ON `invoices` (`kind`,`year`,`sequence`);--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_order_kind_unique` ON `invoices` (`order_id`,`kind`);--> statement-breakpoint
ALTER TABLE `orders` ADD `billing_name` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `billing_country` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `card_country` text;--> statement-breakpoint
ALTER TABLE `test_checkout_sessions` ADD `country` text;