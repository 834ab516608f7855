import type { Locale } from "../../../shared/locales";
import type { Topic } from "./site-content";

// The offline assistant's vocabulary (issue 13): for each topic of site-content.ts and each
// language, the everyday words visitors use for it, which the answer itself may not contain
// ("combien", "remboursé", "télé", "prélever"...). Words are matched without accents and case,
// with typos tolerated. Owner-editable: add the words of the questions your visitors really ask
// (`site chats export`), then check with `bun bench/chat-offline.ts`.

/** Words that say nothing about what is asked (articles, pronouns, "how", "can"...), per language. */
export const STOP_WORDS: Record<Locale, string> = {
  fr: `le la les l un une des du de d au aux en et ou mais donc car ni que qu qui quoi quel quelle quels quelles
    est etre suis sont sera etes sommes c ce cet cette ces ca cela ceci il elle ils elles on je j me m moi tu te t toi vous nous
    mon ma mes ton ta tes son sa ses votre vos notre nos leur leurs y se s ne n pas plus tres bien aussi tout tous toute
    faut peut peux puis pouvez pourrais avoir ai as avez ont a fait faire comment pourquoi sur dans par pour avec chez
    si oui non svp stp alors deja cest jai ya quest vraiment possible dispo disponible ok bonjour`,
  en: `a an the is are am be been being do does did doing have has had i me my mine you your yours we our us it its
    this that these those what which who whom how where why can could will would should shall may might must to of in
    on at by for with from about as into and or but if not no yes there their they them he she his her get got just
    also any some all very more so than then too up out really please im dont doesnt didnt don doesn didn isn t s m ll
    re ve d whats thats many ok hello hi hey`,
  it: `il lo la i gli le l un uno una di del dello della dei degli delle d a al allo alla ai agli alle da dal dalla in
    nel nella con su sul sulla per tra fra e ed o ma se che chi cosa quale quali come dove perche sono sei siamo
    essere ho hai ha abbiamo avete hanno c ci si mi ti vi mio mia miei mie tuo tua suo sua io tu lui lei noi voi loro
    non piu molto anche tutto tutti devo posso puoi potete puo fare fa gia vero davvero ok ciao`,
  es: `el la los las lo un una unos unas de del a al en y e o u pero si que quien quienes cual cuales como donde por
    para con sobre entre es son soy eres ser estar esta estan hay he has ha hemos han me te se nos os le les mi mis tu
    tus su sus nuestro nuestra yo ella nosotros vosotros ellos no mas muy tambien todo todos todas tengo tienes tiene
    tienen teneis puedo puedes puede podeis hacer hace porque ya aun algo hola`,
};

/** A message made only of these is a greeting, answered with the chat's greeting. */
export const GREETINGS: Record<Locale, string> = {
  fr: "bonjour bonsoir salut coucou allo",
  en: "hello hi hey hiya good morning afternoon evening",
  it: "ciao buongiorno buonasera salve",
  es: "hola buenas buenos dias tardes noches",
};

/** A message made only of these (and greetings) is thanks, answered with a polite closing. */
export const THANKS: Record<Locale, string> = {
  fr: "merci beaucoup super parfait top genial ok d accord nickel",
  en: "thanks thank you thx cheers great perfect ok okay cool",
  it: "grazie mille perfetto ottimo ok va bene benissimo",
  es: "gracias muchas perfecto genial vale ok de acuerdo estupendo",
};

/** The site's name is added to the product topic's words in every language. */
export const TOPIC_WORDS: Record<Topic, Record<Locale, string>> = {
  product: {
    fr: "vendez proposez produit présentation concept",
    en: "sell selling product about offering concept",
    it: "vendete proponete prodotto presentazione",
    es: "vendeis ofreceis producto presentacion",
  },
  price: {
    fr: "prix tarif tarifs combien coute coûte couter coût cher chère euros montant somme total valeur promo réduction gratuit",
    en: "price prices pricing cost costs much expensive cheap amount euros total fee charge rate free",
    it: "prezzo prezzi costo costa costano costare quanto quant caro euro importo tariffa totale viene sconto gratis gratuito",
    es: "precio precios coste costo cuesta cuestan costar cuanto vale caro euros importe tarifa total descuento gratis gratuito",
  },
  payment: {
    fr: "payer paye paiement payement moyen moyens mode carte bancaire cb visa mastercard amex paypal bitcoin crypto virement apple google pay plusieurs fois 3x 4x mensualités échelonné espèces chèque prenez acceptez acheter commander",
    en: "pay paying payment methods method options paypal card credit debit visa mastercard amex bitcoin crypto bank transfer apple google instalments installments klarna split cash accept take buy",
    it: "pagare paga paghi pago pagamento metodi metodo modalità paypal carta credito debito bancomat visa mastercard bitcoin crypto bonifico apple google rate satispay contanti accettate prendete comprare comprarlo acquistare ordinare",
    es: "pagar pago formas forma metodos metodo paypal tarjeta credito debito visa mastercard bitcoin cripto transferencia bizum apple google plazos cuotas aceptan aceptais efectivo comprar compro comprarlo",
  },
  "one-time": {
    fr: "abonnement abonnements abonné abonner mensuel mensuelle mois unique une fois vie expire expiration définitif toujours illimité renouvelle renouvellement renouveler reconduction automatique prélever prélèvement prélevé débiter débité facturer encore frais cachés supplémentaires chaque année an ans",
    en: "subscription subscribe monthly month months once one time off lifetime forever expire expires permanent single renew renews renewal auto charge charged charges again recurring hidden fees extra billed bill yearly annual every year",
    it: "abbonamento abbonamenti mensile mese mesi unico volta sola vita sempre scade scadenza rinnova rinnovo rinnovare automatico automaticamente addebitate addebito addebiti addebitare ancora nuovo ricorrenti ricorrente costi nascosti extra anno annuale ogni",
    es: "suscripcion suscripciones mensual mes meses unico vez sola vida siempre caduca vitalicio renueva renovar renovacion automatica automaticamente cobrar cobrais cobran cobrareis otra cargos cargo recurrentes recurrente costes ocultos extra año anual cada",
  },
  refund: {
    fr: "rembourser remboursement remboursé remboursée garantie satisfait plait plaît convient convaincu argent récupérer rétractation essai essayer déçu",
    en: "refund refunds refunded money back guarantee moneyback satisfied like happy trial free return reimburse disappointed",
    it: "rimborso rimborsare rimborsato rimborsati garanzia soddisfatto soddisfatti piace convince convinto soldi indietro riavere restituzione prova deluso",
    es: "reembolso reembolsar devolucion devolver dinero garantia satisfecho gusta convence recuperar prueba decepcionado",
  },
  cancel: {
    fr: "annuler annulation résilier résiliation résilie désabonner désinscrire arrêter stopper",
    en: "cancel cancellation cancelling canceling unsubscribe stop terminate quit",
    it: "disdire disdico disdetta annullare cancellare cancellarmi disiscrivere disiscrivermi interrompere",
    es: "cancelar cancelo cancelacion baja darme anular desuscribir desuscribirme",
  },
  devices: {
    fr: "appareil appareils compatible compatibilité marche fonctionne iphone ipad ios android samsung lg smart tv télé télévision téléviseur téléphone tel portable mobile smartphone tablette ordinateur pc mac macbook windows linux firestick fire chromecast box console xbox playstation ps4 ps5 nintendo switch écrans écran",
    en: "device devices compatible compatibility work works run runs iphone ipad ios android samsung lg smart tv telly television phone mobile smartphone tablet computer laptop pc mac macbook windows linux firestick fire chromecast box console xbox playstation ps4 ps5 nintendo switch screens screen",
    it: "dispositivo dispositivi compatibile compatibilità funziona va iphone ipad ios android samsung lg smart tv televisione televisore telefono cellulare smartphone tablet computer portatile pc mac windows linux firestick fire chromecast box console xbox playstation ps4 ps5 nintendo switch schermi schermo",
    es: "dispositivo dispositivos compatible compatibilidad funciona sirve iphone ipad ios android samsung lg smart tv tele television televisor telefono movil celular smartphone tablet ordenador portatil computadora pc mac windows linux firestick fire chromecast box consola xbox playstation ps4 ps5 nintendo switch pantallas pantalla",
  },
  "device-limit": {
    fr: "limite limitée limité maximum max nombre simultanément simultané atteinte atteint dépassé libérer libère désactiver remplacer remplacé changé",
    en: "limit limited maximum max number simultaneous simultaneously reached exceeded exceed release deactivate replace replaced replacing",
    it: "limite limitato massimo max numero contemporaneamente simultaneo raggiunto superato liberare libero disattivare sostituire sostituito cambiato troppi",
    es: "limite limitado maximo max numero simultaneo simultaneamente alcanzado alcanzo superado liberar libero desactivar sustituir cambiado demasiados",
  },
  sharing: {
    fr: "partager partage partagé partagée famille familial proches amis ami copain copine conjoint femme mari enfants frère soeur parents compte personnelle personnel revendre revente prêter",
    en: "share sharing shared family friend friends household relatives partner wife husband kids children brother sister parents account personal resell resale lend",
    it: "condividere condivisione condiviso condivisa famiglia familiari amici amico parenti moglie marito figli fratello sorella genitori account personale rivendere prestare",
    es: "compartir compartida compartido familia familiares amigos amigo pareja esposa marido hijos hermano hermana padres cuenta personal revender prestar",
  },
  installation: {
    fr: "installer installation installe activer activation appli application configurer configuration guide étapes démarrer mettre place difficile compliqué facile longtemps minutes",
    en: "install installing installation activate activation setup set configure guide steps start difficult hard easy complicated long minutes",
    it: "installare installazione installa installo installarla installarlo attivare attivarla attivo attivazione configurare configurazione guida passaggi iniziare difficile complicato facile minuti",
    es: "instalar instalacion instala instalo instalarla instalarlo activar activarla activo activacion configurar configuracion guia pasos empezar dificil complicado facil minutos",
  },
  delivery: {
    fr: "recevoir reçois reçoit identifiants codes accès quand après paiement email mail délai livraison livré envoi envoyé",
    en: "receive get access login credentials details when after payment buying bought email mail delivery delivered sent",
    it: "ricevere ricevo ricevono credenziali dati accesso quando dopo pagamento acquisto email mail consegna inviato arrivano",
    es: "recibir recibo recibe credenciales datos acceso cuando despues pago compra email correo entrega enviado llegan",
  },
  "not-received": {
    fr: "rien reçu toujours jamais arrivé arrive perdu perdue supprimé effacé retrouver renvoyer renvoi licence mail spam mais",
    en: "nothing received didn never arrived arrive lost deleted find resend again licence license missing paid payed but no email",
    it: "niente nulla ricevuto arrivato arrivata arriva mai perso persa cancellato ritrovare rimandare licenza spam pagato ma",
    es: "nada recibido llegado llego llega nunca perdido perdi borrado encontrar reenviar licencia spam pagado pague pero",
  },
  offline: {
    fr: "hors ligne connexion internet wifi réseau avion train télécharger téléchargement sans offline",
    en: "offline connection internet wifi network plane flight train download downloads without",
    it: "offline connessione internet wifi rete aereo treno scaricare scarica download senza",
    es: "offline conexion internet wifi red avion tren descargar descarga sin",
  },
  ads: {
    fr: "pub pubs publicité publicités réclame coupures coupure interruptions annonces spots",
    en: "ads ad adverts advert advertising advertisements commercials commercial interruptions",
    it: "pubblicità pubblicitarie pubblicitari spot annunci interruzioni",
    es: "anuncios anuncio publicidad cortes interrupciones",
  },
  security: {
    fr: "sécurisé sécurisée sécurité sûr fiable confiance arnaque données carte stockez gardez conservez infos informations protégé",
    en: "secure security safe trust trustworthy scam data card store keep details information protected",
    it: "sicuro sicura sicurezza affidabile fiducia truffa dati carta salvate conservate memorizzate informazioni protetto",
    es: "seguro segura seguridad fiable confianza estafa datos tarjeta guardais guardan almacenan informacion protegido",
  },
  support: {
    fr: "contacter contact joindre support service client aide humain personne quelqu conseiller parler écrire adresse téléphone heures horaires ouvert dimanche week end répondez répond",
    en: "contact reach support service customer help human person someone agent talk speak write address phone hours open sunday weekend answer reply",
    it: "contattare contatto contatti assistenza servizio clienti aiuto umano persona qualcuno operatore parlare scrivere indirizzo telefono orari orario aperti domenica risponde",
    es: "contactar contacto soporte atencion cliente clientes ayuda humano persona alguien agente hablar escribir direccion telefono horario horarios abierto domingo responde",
  },
  problem: {
    fr: "problème souci erreur bug bloqué refusé refusée invalide incorrecte deux double débité débiter prélevé facturé clé lien marche fonctionne",
    en: "problem issue error bug stuck refused rejected invalid wrong twice double charged key link broken work works",
    it: "problema errore bug bloccato rifiutata rifiutato invalida sbagliata due volte doppio addebitato chiave link collegamento funziona",
    es: "problema error fallo bloqueado rechazada rechazado invalida incorrecta dos veces doble cobrado clave enlace funciona",
  },
  catalogue: {
    fr: "netflix disney hbo prime amazon canal sky dazn bein foot football match matchs ligue champions sport sports direct live chaîne chaînes titre titres saison marvel catalogue liste",
    en: "netflix disney hbo prime amazon sky dazn espn football soccer match matches league premier champions sport sports live channel channels title titles season marvel catalogue catalog list",
    it: "netflix disney hbo prime amazon sky dazn calcio partita partite serie champions sport diretta live canale canali titolo titoli stagione marvel catalogo elenco",
    es: "netflix disney hbo prime amazon movistar dazn futbol partido partidos liga champions deporte deportes directo vivo canal canales titulo titulos temporada marvel catalogo lista",
  },
  legality: {
    fr: "légal légale illégal legalité loi droits pirate piratage iptv autorisé officiel permis interdit",
    en: "legal illegal legit legitimate law rights pirate piracy pirated iptv authorised authorized official allowed permitted banned",
    it: "legale illegale legalità legge diritti pirata pirateria iptv autorizzato ufficiale consentito permesso vietato",
    es: "legal ilegal legalidad ley derechos pirata pirateria iptv autorizado oficial permitido prohibido",
  },
  quality: {
    fr: "qualité hd 4k image résolution définition nette flou lag fluide",
    en: "quality hd 4k picture image resolution definition sharp blurry lag smooth",
    it: "qualità hd 4k immagine risoluzione definizione nitido sfocato lag fluido",
    es: "calidad hd 4k imagen resolucion definicion nitido borroso lag fluido",
  },
  "new-content": {
    fr: "nouveautés nouveauté nouveaux nouvelles ajoutez ajout ajouter régulièrement chaque semaine récents sorties",
    en: "new added add adding regularly every week latest releases recent",
    it: "novità nuovi nuove aggiungete aggiunti aggiungere spesso ogni settimana recenti uscite",
    es: "novedades nuevos nuevas añadis añaden agregan frecuencia cada semana recientes estrenos",
  },
  updates: {
    fr: "mise jour mises update correctifs automatiques",
    en: "update updates updated fixes automatic",
    it: "aggiornamento aggiornamenti aggiorna automatici",
    es: "actualizacion actualizaciones actualiza automaticas",
  },
  languages: {
    fr: "sous titres langue langues vf vo vostfr audio doublage français anglais",
    en: "subtitles subtitle captions language languages audio dubbed dubbing english french",
    it: "sottotitoli sottotitolo lingue lingua audio doppiaggio doppiato italiano inglese",
    es: "subtitulos subtitulo idiomas idioma audio doblaje doblada español ingles",
  },
  savings: {
    fr: "économiser économie économise économies comparer comparaison comparé différence rapport moins cher rentable",
    en: "save saving savings compare compared comparison difference cheaper worth versus vs",
    it: "risparmiare risparmio confronto rispetto differenza confrontare conviene meno caro",
    es: "ahorrar ahorro comparado comparacion diferencia comparar barato compensa",
  },
  how: {
    fr: "marche fonctionnement étapes processus déroule",
    en: "work works process steps",
    it: "funziona funzionamento passaggi processo",
    es: "funciona funcionamiento pasos proceso",
  },
};

/**
 * Pairs of word groups, "words + words": a question holding a word of each group is about the topic,
 * although either word alone says another: "combien" is the price and "appareils" the devices that
 * work, "combien d'appareils" is the device limit; "numéro de carte" is payment security, "question
 * numéro 1" is not. Matched among all the question's words, stop words included ("how many").
 */
export const TOPIC_PAIRS: Partial<Record<Topic, Record<Locale, readonly string[]>>> = {
  "device-limit": {
    fr: [
      "combien nombre plusieurs trop + appareils écrans télés téléviseurs téléphones tel portables ordinateurs pc tablettes",
      "libérer libère + appareil appareils clé",
      "arrive plus refusée refusé impossible échoue échec + active activer activation",
    ],
    en: [
      "many number several multiple too + devices screens tvs tellies phones computers laptops tablets",
      "free + device devices key",
      "won wont doesn doesnt cant cannot unable failed fails refused + activate activation",
    ],
    it: [
      "quanti quante numero più vari diversi troppi + dispositivi schermi televisori tv telefoni computer pc tablet",
      "liberare libero + dispositivo dispositivi chiave",
      "riesco più rifiutata impossibile fallita + attiva attivare attivazione",
    ],
    es: [
      "cuantos cuantas numero varios varias demasiados + dispositivos pantallas teles televisores moviles telefonos ordenadores pc tablets",
      "liberar libero + dispositivo dispositivos clave",
      "consigo ya rechazada imposible fallida + activa activar activacion",
    ],
  },
  security: {
    fr: ["numéro + carte cb"],
    en: ["number + card"],
    it: ["numero + carta"],
    es: ["numero + tarjeta"],
  },
  sharing: {
    fr: [
      "frère sœur famille ami amis enfants femme mari conjoint copain copine parents + clé licence compte",
      "combien plusieurs + personnes gens utilisateurs",
    ],
    en: [
      "brother sister family friend friends kids children wife husband partner parents + key licence license account",
      "many several + people persons users",
    ],
    it: [
      "fratello sorella famiglia amico amici figli moglie marito genitori + chiave licenza account",
      "quante quanti più + persone utenti",
    ],
    es: [
      "hermano hermana familia amigo amigos hijos mujer esposa marido pareja padres + clave licencia cuenta",
      "cuantas cuantos varias + personas usuarios",
    ],
  },
};
