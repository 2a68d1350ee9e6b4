import './styles.css';
import { PAGE_DATA_ID } from './page-script';

/** Longest the app waits for the first screen's main image before it starts anyway. */
const IMAGE_WAIT_MS = 3000;

/**
 * The browser's entry: the server's HTML is complete, so the app is loaded and hydrated only after
 * the browser has painted the first screen: its HTML and its main image (the one the page asks
 * for with high priority). On a phone, evaluating React and hydrating the page takes the main
 * thread for a while; done earlier (scripts from the cache or a fast network come early), it
 * would hold back what the shopper came to see. Until then the page works as plain HTML: its links
 * are links.
 */
async function afterFirstScreen(): Promise<void> {
  // A page opened in a background tab gets no frames until it is shown, and has nothing to paint.
  if (document.visibilityState === 'hidden') return;
  const image = document.querySelector<HTMLImageElement>('img[fetchpriority="high"]');
  if (image && !image.complete) {
    await new Promise<void>((resolve) => {
      image.addEventListener('load', () => resolve(), { once: true });
      image.addEventListener('error', () => resolve(), { once: true });
      setTimeout(resolve, IMAGE_WAIT_MS);
    });
  }
  // The callback runs before the next frame is painted; the task after it, once it has been.
  await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

/**
 * Asks for the page's modules all at once, so that the page's chunk and its texts do not wait
 * for the app's to arrive and ask for them. They are not in the page's HTML as `modulepreload`
 * links: on a slow phone network those downloads would share the link with the first screen's
 * images.
 */
function fetchPageModules(): void {
  const modules = document.getElementById(PAGE_DATA_ID)?.dataset.modules;
  for (const href of modules ? modules.split(' ') : []) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
}

void afterFirstScreen().then(() => {
  fetchPageModules();
  return import('./hydrate');
});
