CREATE TABLE `review_invites` (
	`order_id` integer PRIMARY KEY NOT NULL,
	`mail_id` integer,
	`invited_at` integer,
	`stopped_at` integer,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `reviews` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`order_id` integer NOT NULL,
	`locale` text NOT NULL,
	`rating` integer NOT NULL,
	`text` text NOT NULL,
	`display_name` text NOT NULL,
	`name_style` text NOT NULL,
	`city` text,
	`status` text NOT NULL,
	`refusal_reason` text,
	`reply` text,
	`replied_at` integer,
	`consent_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`published_at` integer,
	`decided_at` integer,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reviews_order_unique` ON `reviews` (`order_id`);--> statement-breakpoint
CREATE INDEX `reviews_status_published_idx` ON `reviews` (`status`,`published_at`);--> statement-breakpoint
ALTER TABLE `orders` ADD `in_notice` integer DEFAULT false NOT NULL;