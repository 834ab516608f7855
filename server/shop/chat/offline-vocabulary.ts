import type { Locale } from "../../../shared/locales";

// Small talk and the words that tell a language apart: a message made only of greetings or thanks
// gets the chat's greeting or closing, and the stop words help tell which language a question is
// written in. Which topic a question is about is the classifier's job (topic-classifier.ts).

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
