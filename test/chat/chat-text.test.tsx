import { expect, test } from "bun:test";
import { renderToStaticMarkup } from "react-dom/server";
import { ChatText } from "../../client/components/chat-text";

// The chat window shows assistant replies as text with their addresses as links: the support
// address opens the visitor's mail program, site pages open the page.

test("the support address in a reply is a mailto: link, and the site pages named in it are links", () => {
  const html = renderToStaticMarkup(
    <ChatText text="Write to help@stream.example within 7 days; terms of sale: /en/cgv. Privacy: /en/confidentialite." />,
  );
  expect(html).toContain('<a href="mailto:help@stream.example">help@stream.example</a> within 7 days');
  expect(html).toContain('<a href="/en/cgv">/en/cgv</a>.');
  expect(html).toContain('<a href="/en/confidentialite">/en/confidentialite</a>.');
});

test("a French reply's address before its colon and the access page are links too", () => {
  const html = renderToStaticMarkup(<ChatText text="Écrivez à notre équipe à support@example.com : elle répond. Page : /access" />);
  expect(html).toContain('<a href="mailto:support@example.com">support@example.com</a> :');
  expect(html).toContain('<a href="/access">/access</a>');
});
