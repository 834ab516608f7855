// What a production start needs besides its payment settings: the seller's identity,
// the host, the consumer mediator, a real support address and a public address. Shared by the
// tests (and benches) that run the site with NODE_ENV=production.
export const PRODUCTION_READY_ENV = {
  NODE_ENV: "production",
  PUBLIC_BASE_URL: "https://stream-shop.fr",
  SUPPORT_EMAIL: "aide@stream-shop.fr",
  SELLER_NAME: "Stream Shop SAS",
  SELLER_ADDRESS: "12 rue de la Paix, 75002 Paris, France",
  SELLER_REGISTRATION: "RCS Paris 912 345 678",
  HOSTING_PROVIDER: "Hébergeur SAS, 1 avenue du Serveur, 59100 Roubaix, France, +33 3 00 00 00 00",
  MEDIATOR_NAME: "Médiateur de la consommation (exemple)",
  MEDIATOR_URL: "https://mediateur.stream-shop.fr",
  VAT_SCHEME: "fr",
} as const;
