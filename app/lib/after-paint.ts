/** The type that keeps React Router's module script from running until the page has painted. */
export const inertModuleType = 'text/x-module-after-paint';

/**
 * Runs in `<head>`: once the first frame is on screen (two `requestAnimationFrame`s, then a
 * task), adds the modulepreload links and a live copy of the inert module script, with the page's
 * nonce. Each link costs the browser ~0.6 ms to ask for, so they go eight to a task (one task of
 * ~30 ms for all of them would be a long task on a phone). A hidden tab paints no frame, so a timer
 * starts them there (and after 3 s in any case); the element may still be on its way when the frame
 * comes (a streamed page), so the loader looks again until the document is parsed.
 */
export const afterPaintLoaderScript = `(function(){var started=false;function load(){if(started)return;var entry=document.querySelector('script[type="${inertModuleType}"]');if(!entry){if(document.readyState==='loading')setTimeout(load,25);return}started=true;var head=document.head;var hrefs=(entry.getAttribute('data-preloads')||'').split(' ').filter(Boolean);var next=0;function batch(){for(var end=Math.min(next+8,hrefs.length);next<end;next++){var link=document.createElement('link');link.rel='modulepreload';link.href=hrefs[next];link.nonce=entry.nonce;head.appendChild(link)}if(next<hrefs.length){setTimeout(batch,0);return}var script=document.createElement('script');script.type='module';script.nonce=entry.nonce;script.textContent=entry.textContent;head.appendChild(script)}batch()}if(document.visibilityState==='hidden')setTimeout(load,0);else requestAnimationFrame(function(){requestAnimationFrame(function(){setTimeout(load,0)})});setTimeout(load,3000)})();`;
