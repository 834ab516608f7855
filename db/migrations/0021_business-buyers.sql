ALTER TABLE `orders` ADD `company` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `company_address` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `company_country` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `buyer_vat_number` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `tax_evidence` text;