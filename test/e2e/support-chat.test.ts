import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { type FakeAnthropic, startFakeAnthropic } from "../chat/fake-anthropic";
import { plainSpaces } from "../support/text";
import { axeViolations } from "./axe";
import { type RunningServer, startServer, watchConsole } from "./harness";
import { sideBySide } from "./limit";
import { useBrowser } from "./shared-browser";

// The support widget's journeys. One server talks to a fake Anthropic API in this process
// (so a reply can be held half-way to see it stream, or made to fail); another runs the offline
// assistant, the embedded default.

const EMAIL = "aide@stream.example";
let fake: FakeAnthropic;
let claude: RunningServer;
let offline: RunningServer;
const shared = useBrowser();

/** The journeys on the offline assistant or a server of their own are independent (each its own
 * context): side by side, three at a time. The two that set how the fake Anthropic API answers (it
 * answers every request the same way) run alone. */
const journey = sideBySide(3);

beforeAll(async () => {
  fake = startFakeAnthropic();
  [claude, offline] = await Promise.all([
    startServer({
      env: {
        SUPPORT_EMAIL: EMAIL,
        ANTHROPIC_API_KEY: "sk-ant-test-0000000000",
        ANTHROPIC_BASE_URL: fake.url,
        ANTHROPIC_TIMEOUT_MS: "15000",
      },
    }),
    startServer({ env: { SUPPORT_EMAIL: EMAIL } }),
  ]);
}, 90_000);

afterAll(async () => {
  await Promise.all([claude?.stop(), offline?.stop()]);
  await fake?.stop();
}, 30_000);

const SUPPORT_LABEL: Record<string, string> = { "/it": "Assistenza" };

async function open(
  server: RunningServer,
  path = "/",
  init: Parameters<Browser["newContext"]>[0] = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await shared.newContext({ baseURL: server.baseUrl, ...init });
  // Keep the exit popup (30 s) out of these journeys.
  await context.addInitScript(() => window.localStorage.setItem("exit-popup-shown", "1"));
  const page = await context.newPage();
  await page.goto(path);
  await page.getByRole("button", { name: SUPPORT_LABEL[path] ?? "Support" }).waitFor({ state: "visible" });
  return { context, page };
}

/** The menu's chat item: its label is in the page's language (the English page keeps the spec's "Chat Support"). */
async function openChat(page: Page, name = "Support par chat") {
  await page.getByRole("button", { name: "Support" }).click();
  await page.getByRole("menuitem", { name }).click();
  return page.getByRole("dialog");
}

test("open the chat, send a question, see the answer arrive as it streams", async () => {
  fake.behave({ kind: "reply", pieces: ["Oui, c'est un paiement unique", " de 29,99 € : aucun abonnement."], holdAfterFirst: true });
  const { context, page } = await open(claude);
  const consoleLog = watchConsole(page);
  const chat = await openChat(page);
  expect(await chat.getByRole("heading").textContent()).toBe("Support Lifetime Stream");
  expect(plainSpaces(await chat.locator(".chat-msg").first().textContent())).toContain("Bonjour ! Je suis l'assistant");
  const input = chat.getByLabel("Votre message");
  expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);

  await input.fill("C'est un abonnement ?");
  await input.press("Enter");
  // The first piece shows while the rest is still on its way, and sending is blocked meanwhile.
  await chat.getByText("Oui, c'est un paiement unique", { exact: true }).waitFor();
  expect(await chat.getByRole("button", { name: "Envoyer" }).isDisabled()).toBe(true);
  expect(await chat.locator(".chat-msg--user").textContent()).toContain("C'est un abonnement ?");

  fake.release();
  await chat.getByText("Oui, c'est un paiement unique de 29,99 € : aucun abonnement.").waitFor();
  await chat.locator(".chat-msg--streaming").waitFor({ state: "detached" });
  // The request carried the French page's language and the visitor's question.
  const sent = fake.requests.at(-1)?.body;
  expect(sent?.messages).toEqual([{ role: "user", content: "C'est un abonnement ?" }]);
  expect(String(sent?.system)).toContain("or else in French (Français), the language of the page");

  // The list keeps the newest message in view.
  const log = chat.getByRole("log");
  expect(await log.evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 2)).toBe(true);

  // Escape closes the window and gives focus back to the support button.
  await page.keyboard.press("Escape");
  await chat.waitFor({ state: "detached" });
  expect(await page.getByRole("button", { name: "Support" }).evaluate((el) => el === document.activeElement)).toBe(true);
  expect(consoleLog.errors).toEqual([]);
  await context.close();
}, 90_000);

journey(
  "an empty or whitespace-only message is not sent",
  async () => {
    const { context, page } = await open(offline);
    const chatRequests: string[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/api/chat")) chatRequests.push(r.url());
    });
    const chat = await openChat(page);
    const input = chat.getByLabel("Votre message");
    const send = chat.getByRole("button", { name: "Envoyer" });
    expect(await send.isDisabled()).toBe(true);
    await input.fill("    ");
    expect(await send.isDisabled()).toBe(true);
    // No wait for a request that should not come: the real question below is answered after it would
    // have been, and exactly one request is counted then.
    await input.press("Enter");
    expect(chatRequests).toEqual([]);
    expect(await chat.locator(".chat-msg--user").count()).toBe(0);

    // A real question is sent and answered by the offline assistant with the page's price.
    await input.fill("Combien ça coûte ?");
    await input.press("Enter");
    await chat.getByText(/^L'accès à vie coûte 29,99\s€/).waitFor();
    expect(chatRequests).toHaveLength(1);
    await context.close();
  },
  90_000,
);

journey(
  "the conversation survives closing the window and going to another page of the site in the same tab",
  async () => {
    const { context, page } = await open(offline);
    const consoleLog = watchConsole(page);
    const sent: { conversationId?: string; messages: { content: string }[] }[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/api/chat")) sent.push(JSON.parse(r.postData() ?? "{}"));
    });
    let chat = await openChat(page);
    // An English question on the French page: answered in English.
    await chat.getByLabel("Votre message").fill("How much is it?");
    await chat.getByLabel("Votre message").press("Enter");
    await chat.getByText(/^Lifetime access costs €29\.99/).waitFor();
    await page.keyboard.press("Escape");
    await chat.waitFor({ state: "detached" });

    // To the installation guide by the footer's link, in the same tab.
    await page.getByRole("contentinfo").getByRole("link", { name: "Guide d'installation" }).click();
    await page.waitForURL(/\/guide$/);
    await page.getByRole("button", { name: "Support" }).waitFor({ state: "visible" });
    chat = await openChat(page);
    expect(await chat.locator(".chat-msg--user").allTextContents()).toEqual(["Vous: How much is it?"]);
    expect(await chat.getByText(/^Lifetime access costs €29\.99/).count()).toBe(1);

    // The next question carries on the same conversation on the server: a bare "PayPal?" on a French
    // page is answered in the English of the conversation the server stored.
    await chat.getByLabel("Votre message").fill("PayPal?");
    await chat.getByLabel("Votre message").press("Enter");
    await chat.getByText(/^You pay by card/).waitFor();
    expect(sent).toHaveLength(2);
    expect(sent[0]?.conversationId).toBeUndefined();
    expect(sent[1]?.conversationId).toMatch(/^[A-Za-z0-9_-]{44}$/);
    expect(sent[1]?.messages.map((m) => m.content)).toEqual([
      "How much is it?",
      expect.stringMatching(/^Lifetime access costs/),
      "PayPal?",
    ]);
    expect(await chat.locator(".chat-msg--user").count()).toBe(2);

    // A new tab is a new conversation.
    const other = await context.newPage();
    await other.goto("/");
    await other.getByRole("button", { name: "Support" }).waitFor({ state: "visible" });
    const fresh = await openChat(other);
    expect(await fresh.locator(".chat-msg--user").count()).toBe(0);
    expect(consoleLog.errors).toEqual([]);
    await context.close();
  },
  90_000,
);

test("when no reply can be had, the 'Erreur' toast names the support address", async () => {
  fake.behave({ kind: "error", status: 500, type: "api_error", message: "Internal server error" });
  const { context, page } = await open(claude, "/en");
  const chat = await openChat(page, "Chat Support");
  const input = chat.getByLabel("Your message");
  await input.fill("Hello?");
  await input.press("Enter");
  const toast = page.locator(".toast--error");
  await toast.waitFor();
  expect(await toast.textContent()).toContain("Error");
  expect(await toast.textContent()).toContain(EMAIL);
  // The question goes back into the field, ready to send again.
  expect(await input.inputValue()).toBe("Hello?");
  expect(await chat.locator(".chat-msg--user").count()).toBe(0);
  await context.close();
}, 90_000);

journey(
  "past the chat's limit of messages a minute, the window says to wait about a minute, in the page's language, and keeps the question",
  async () => {
    // A server of its own: the messages sent here use up this client's allowance for a minute.
    const limited = await startServer({ env: { SUPPORT_EMAIL: EMAIL } });
    try {
      const { context, page } = await open(limited, "/", { bypassCSP: true, reducedMotion: "reduce" });
      const chat = await openChat(page);
      const input = chat.getByLabel("Votre message");
      const answers = chat.locator(".chat-msg--assistant:not(.chat-msg--notice)");
      // The server's burst allowance (8 a minute): each question answered, until the 429.
      let allowed = 0;
      for (; allowed < 20; allowed++) {
        await input.fill(`Combien ça coûte ? (${allowed + 1})`);
        const response = page.waitForResponse((r) => r.url().endsWith("/api/chat"));
        await input.press("Enter");
        if ((await response).status() === 429) break;
        await answers.nth(allowed + 1).waitFor();
      }
      expect(allowed).toBe(8);
      const notice = chat.getByRole("log").locator(".chat-msg--notice");
      await notice.waitFor();
      expect(await notice.textContent()).toMatch(
        /^Vous avez envoyé beaucoup de messages en peu de temps\. Patientez environ (une minute|\d+ secondes), puis envoyez à nouveau votre question\.$/,
      );
      // Not the "Erreur" toast, and the question is still in the field, ready to send again.
      expect(await page.locator(".toast--error").count()).toBe(0);
      expect(await input.inputValue()).toBe("Combien ça coûte ? (9)");
      expect(await axeViolations(page, "chat asked to wait")).toEqual([]);
      await context.close();
    } finally {
      await limited.stop();
    }
  },
  90_000,
);

journey(
  "« Support par email » copies the address and shows 'Email copié !'",
  async () => {
    const { context, page } = await open(offline, "/", { permissions: ["clipboard-read", "clipboard-write"] });
    await page.getByRole("button", { name: "Support" }).click();
    await page.getByRole("menuitem", { name: "Support par email" }).click();
    await page.getByText("Email copié !").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(EMAIL);
    expect(await page.getByRole("menu").count()).toBe(0);
    await context.close();
  },
  90_000,
);

journey(
  "where the clipboard is refused, the address is shown selected with a mailto: link",
  async () => {
    const { context, page } = await open(offline, "/en");
    await page.evaluate(() => {
      navigator.clipboard.writeText = () => Promise.reject(new DOMException("denied", "NotAllowedError"));
    });
    await page.getByRole("button", { name: "Support" }).click();
    await page.getByRole("menuitem", { name: "E-mail Support" }).click();
    const link = page.locator(".support").getByRole("link", { name: EMAIL });
    await link.waitFor();
    expect(await link.getAttribute("href")).toBe(`mailto:${EMAIL}`);
    expect(await page.evaluate(() => window.getSelection()?.toString())).toBe(EMAIL);
    expect(await page.getByText("E-mail copied!").count()).toBe(0);
    await context.close();
  },
  90_000,
);

journey(
  "the menu works from the keyboard and Escape closes it",
  async () => {
    const { context, page } = await open(offline, "/it");
    const trigger = page.getByRole("button", { name: "Assistenza" });
    await trigger.focus();
    await page.keyboard.press("Enter");
    const menu = page.getByRole("menu");
    await menu.waitFor();
    expect(await trigger.getAttribute("aria-expanded")).toBe("true");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Assistenza via chat");
    await page.keyboard.press("ArrowDown");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Assistenza via email");
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "detached" });
    expect(await trigger.evaluate((el) => el === document.activeElement)).toBe(true);

    // Chat from the keyboard, in the page's language.
    await page.keyboard.press("Enter");
    await menu.waitFor();
    await page.keyboard.press("Enter");
    const chat = page.getByRole("dialog");
    expect(await chat.locator(".chat-msg").first().textContent()).toContain("Ciao!");
    await context.close();
  },
  90_000,
);

/** The window's box once its opening animation (a scale-in) has finished. */
async function settledBox(dialog: Locator) {
  await dialog.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
  return dialog.boundingBox();
}

journey(
  "on a phone the chat window takes the full width; on a computer it is 380 x 500",
  async () => {
    const phone = await open(offline, "/", { viewport: { width: 375, height: 740 } });
    // On a phone the button comes in once the first screen is scrolled past.
    await phone.page.evaluate(() => window.scrollTo({ top: window.innerHeight, behavior: "instant" }));
    const small = await settledBox(await openChat(phone.page));
    expect(small?.width).toBeGreaterThanOrEqual(375 - 40);
    await phone.context.close();

    const desktop = await open(offline, "/", { viewport: { width: 1280, height: 900 } });
    const large = await settledBox(await openChat(desktop.page));
    expect(large?.width).toBe(380);
    expect(large?.height).toBe(500);
    await desktop.context.close();
  },
  90_000,
);
