// A frame of this extension in every page, the way password managers show their
// inline menus: a badge in a closed shadow root of a host element of our own as the
// page loads, and a menu frame beside a text field when it takes the focus (so a frame
// appears in the middle of someone typing).
const menuUrl = chrome.runtime.getURL('menu.html');

function badge() {
  const host = document.createElement('frame-injector-badge');
  const root = host.attachShadow({ mode: 'closed' });
  const frame = document.createElement('iframe');
  frame.src = `${menuUrl}?badge`;
  frame.style.cssText = 'position:fixed;right:4px;bottom:4px;width:160px;height:40px;border:1px solid #999;z-index:2147483647';
  root.append(frame);
  document.documentElement.append(host);
}

document.addEventListener('focusin', (event) => {
  const field = event.target;
  if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement)) return;
  if (document.querySelector('iframe[data-injector-menu]')) return;
  const frame = document.createElement('iframe');
  frame.dataset.injectorMenu = 'yes';
  frame.src = `${menuUrl}?menu`;
  const box = field.getBoundingClientRect();
  frame.style.cssText = `position:absolute;left:${box.left + scrollX}px;top:${box.bottom + scrollY}px;width:200px;height:60px;border:1px solid #999;z-index:2147483647`;
  document.body.append(frame);
});

badge();
