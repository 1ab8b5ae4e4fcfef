/** The first thing a keyboard reaches on every page: straight to the page's content (`<main id="main">`). */
export function SkipLink() {
  return (
    <a className="skip-link" href="#main">
      跳到正文
    </a>
  );
}
