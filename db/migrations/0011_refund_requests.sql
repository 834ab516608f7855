ALTER TABLE `orders` ADD `refund_requested_at` integer;--> statement-breakpoint
ALTER TABLE `orders` ADD `refund_started_at` integer;--> statement-breakpoint
CREATE INDEX `orders_refund_requests_idx` ON `orders` (`refund_requested_at`);