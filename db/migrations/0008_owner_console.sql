CREATE TABLE `owner_activity` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`action` text NOT NULL,
	`detail` text NOT NULL,
	`session_id` integer,
	FOREIGN KEY (`session_id`) REFERENCES `owner_sessions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `owner_activity_at_idx` ON `owner_activity` (`at`);--> statement-breakpoint
CREATE TABLE `owner_challenges` (
	`challenge` text PRIMARY KEY NOT NULL,
	`purpose` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `owner_invites` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer
);
--> statement-breakpoint
CREATE TABLE `owner_passkeys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`credential_id` text NOT NULL,
	`public_key` text NOT NULL,
	`counter` integer NOT NULL,
	`transports` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `owner_passkeys_credential_unique` ON `owner_passkeys` (`credential_id`);--> statement-breakpoint
CREATE TABLE `owner_recovery_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`used_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `owner_recovery_codes_hash_unique` ON `owner_recovery_codes` (`code_hash`);--> statement-breakpoint
CREATE TABLE `owner_sessions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`method` text NOT NULL,
	`label` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`verified_at` integer,
	`ended_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `owner_sessions_token_unique` ON `owner_sessions` (`token_hash`);--> statement-breakpoint
CREATE INDEX `orders_email_idx` ON `orders` (lower("customer_email"));--> statement-breakpoint
CREATE INDEX `orders_revenue_idx` ON `orders` (`status`,`paid_at`,`amount`);--> statement-breakpoint
CREATE INDEX `orders_refunds_idx` ON `orders` (`status`,`refunded_at`,`amount`);