<?php
// Router for `php -S`: MediaWiki's short article URLs (/wiki/<Title>, as Wikipedia
// writes them; $wgArticlePath = "/wiki/$1") go to index.php, which reads the title
// from the request URI itself. Anything else (index.php, api.php, load.php, rest.php,
// skins and resources) is served by php -S from the document root as usual.
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
if (strncmp($path, '/wiki/', 6) === 0) {
    $_SERVER['SCRIPT_NAME'] = '/index.php';
    $_SERVER['SCRIPT_FILENAME'] = $_SERVER['DOCUMENT_ROOT'] . '/index.php';
    $_SERVER['PHP_SELF'] = '/index.php';
    require $_SERVER['SCRIPT_FILENAME'];
    return true;
}
return false;
