CREATE TABLE `licenses` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`order_id` integer NOT NULL,
	`key` text NOT NULL,
	`status` text NOT NULL,
	`disabled_reason` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `licenses_order_unique` ON `licenses` (`order_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `licenses_key_unique` ON `licenses` (`key`);--> statement-breakpoint
CREATE TABLE `mail_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`recipient` text NOT NULL,
	`locale` text NOT NULL,
	`payload` text NOT NULL,
	`message_id` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`lease_owner` integer,
	`last_error` text,
	`order_id` integer,
	`lead_id` integer,
	`created_at` integer NOT NULL,
	`sent_at` integer,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`lead_id`) REFERENCES `email_leads`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `mail_outbox_due_idx` ON `mail_outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `mail_outbox_order_idx` ON `mail_outbox` (`order_id`);--> statement-breakpoint
CREATE INDEX `mail_outbox_lead_idx` ON `mail_outbox` (`lead_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `mail_outbox_message_id_unique` ON `mail_outbox` (`message_id`);--> statement-breakpoint
ALTER TABLE `email_leads` ADD `unsubscribe_token` text;--> statement-breakpoint
ALTER TABLE `email_leads` ADD `unsubscribed_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `email_leads_unsubscribe_token_unique` ON `email_leads` (`unsubscribe_token`);--> statement-breakpoint
-- Leads stored before e-mail existed get their unsubscribe secret too (128 random bits, as new ones).
UPDATE `email_leads` SET `unsubscribe_token` = lower(hex(randomblob(16))) WHERE `unsubscribe_token` IS NULL;