// The page's chrome as the URL and the reader chose it.
import { store } from './store.js';

// Owner: app.js (from the URL, and the language selector).
// lang: from ?lang= or the selector, null following the browser; embed: from ?embed=, the one
// experiment an embed shows, or null; theme: from ?theme=, null following prefers-color-scheme.
export const chrome = store({ lang: null, embed: null, theme: null });
