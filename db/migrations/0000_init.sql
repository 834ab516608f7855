CREATE TABLE `chat_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`conversation_id` text NOT NULL,
	`role` text NOT NULL,
	`content` text NOT NULL,
	`locale` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `chat_messages_conversation_idx` ON `chat_messages` (`conversation_id`,`id`);--> statement-breakpoint
CREATE TABLE `email_leads` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`source` text NOT NULL,
	`ip_hash` text,
	`locale` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `email_leads_email_source_unique` ON `email_leads` (`email`,`source`);--> statement-breakpoint
CREATE TABLE `orders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`provider` text NOT NULL,
	`checkout_id` text NOT NULL,
	`payment_intent_id` text,
	`status` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`locale` text NOT NULL,
	`customer_email` text,
	`first_name` text,
	`city` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`paid_at` integer,
	`refunded_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `orders_checkout_id_unique` ON `orders` (`checkout_id`);--> statement-breakpoint
CREATE INDEX `orders_payment_intent_idx` ON `orders` (`payment_intent_id`);--> statement-breakpoint
CREATE INDEX `orders_status_paid_at_idx` ON `orders` (`status`,`paid_at`);--> statement-breakpoint
CREATE TABLE `processed_events` (
	`event_id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`type` text NOT NULL,
	`checkout_id` text,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `test_checkout_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`payment_status` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`locale` text NOT NULL,
	`customer_email` text,
	`customer_name` text,
	`city` text,
	`success_url` text NOT NULL,
	`cancel_url` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
