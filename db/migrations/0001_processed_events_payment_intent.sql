ALTER TABLE `processed_events` ADD `payment_intent_id` text;--> statement-breakpoint
CREATE INDEX `processed_events_payment_intent_idx` ON `processed_events` (`payment_intent_id`,`type`);