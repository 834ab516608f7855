CREATE TABLE `access_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `license_activations` ADD `device_id` text;--> statement-breakpoint
CREATE INDEX `license_activations_device_idx` ON `license_activations` (`license_id`,`device_id`);