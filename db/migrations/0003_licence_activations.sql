CREATE TABLE `access_resends` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `access_resends_email_idx` ON `access_resends` (`email`,`created_at`);--> statement-breakpoint
CREATE TABLE `license_activations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`license_id` integer NOT NULL,
	`instance_id` text NOT NULL,
	`instance_name` text NOT NULL,
	`created_at` integer NOT NULL,
	`deactivated_at` integer,
	FOREIGN KEY (`license_id`) REFERENCES `licenses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `license_activations_instance_unique` ON `license_activations` (`instance_id`);--> statement-breakpoint
CREATE INDEX `license_activations_license_idx` ON `license_activations` (`license_id`,`deactivated_at`);