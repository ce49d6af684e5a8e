import { sameEverywhere, type CommandLocalization } from './shared-localizations.js';

/** `/settings`' names and descriptions in fr, de, it and pt-BR (keyed as in command-localizations.ts). */

const CHANNEL: CommandLocalization = {
  fr: ['salon', 'Ce salon seulement (par défaut : tout le serveur)'],
  de: ['kanal', 'Nur dieser Kanal (Standard: der ganze Server)'],
  it: ['canale', 'Solo questo canale (predefinito: tutto il server)'],
  'pt-BR': ['canal', 'Só este canal (padrão: o servidor inteiro)'],
};

const DEFAULT: CommandLocalization = { fr: ['par défaut'], de: ['Standard'], it: ['predefinito'], 'pt-BR': ['padrão'] };

export const SETTINGS_LOCALIZATIONS: Readonly<Record<string, CommandLocalization>> = {
  settings: {
    fr: ['paramètres', 'Les paramètres d’Almanac pour ce serveur, un salon ou vous-même'],
    de: ['einstellungen', 'Almanacs Einstellungen für diesen Server, einen Kanal oder dich'],
    it: ['impostazioni', 'Le impostazioni di Almanac per questo server, un canale o te'],
    'pt-BR': ['configurações', 'As configurações do Almanac para este servidor, um canal ou você'],
  },
  'settings language': {
    fr: ['langue', 'La langue des réponses publiques et des cartes nommées dans les messages'],
    de: ['sprache', 'Die Sprache öffentlicher Antworten und im Text genannter Karten'],
    it: ['lingua', 'La lingua delle risposte pubbliche e delle carte nominate nei messaggi'],
    'pt-BR': ['idioma', 'O idioma das respostas públicas e das cartas citadas nas mensagens'],
  },
  'settings language language': {
    fr: ['langue', 'Une langue, ou Par défaut'],
    de: ['sprache', 'Eine Sprache oder Standard'],
    it: ['lingua', 'Una lingua, o Predefinita'],
    'pt-BR': ['idioma', 'Um idioma, ou Padrão'],
  },
  'settings language channel': CHANNEL,
  'settings inline-cards': {
    fr: ['cartes-en-ligne', 'Répondre ou non aux cartes nommées dans les messages'],
    de: ['karten-im-text', 'Im Text genannte Karten beantworten oder nicht'],
    it: ['carte-nei-messaggi', 'Rispondere o no alle carte nominate nei messaggi'],
    'pt-BR': ['cartas-nas-mensagens', 'Responder ou não às cartas citadas nas mensagens'],
  },
  'settings inline-cards enabled': {
    fr: ['activé', 'Activé ou désactivé'],
    de: ['aktiv', 'An oder aus'],
    it: ['attivo', 'Attivo o no'],
    'pt-BR': ['ativado', 'Ativado ou desativado'],
  },
  'settings inline-cards channel': CHANNEL,
  'settings ip-answers': {
    fr: ['réponses-ip', 'Qui voit par défaut les réponses de /ip lookup et /ip time (leur option public l’emporte)'],
    de: ['ip-antworten', 'Wer Antworten von /ip lookup und /ip time standardmäßig sieht (ihre Option public gilt vor)'],
    it: ['risposte-ip', 'Chi vede di default le risposte di /ip lookup e /ip time (la loro opzione public prevale)'],
    'pt-BR': ['respostas-ip', 'Quem vê por padrão as respostas de /ip lookup e /ip time (a opção public delas vale mais)'],
  },
  'settings ip-answers visibility': {
    fr: ['visibilité', 'Publiques, privées, ou le défaut de chaque sous-commande'],
    de: ['sichtbarkeit', 'Öffentlich, privat oder der Standard jedes Unterbefehls'],
    it: ['visibilità', 'Pubbliche, private o il predefinito di ogni sottocomando'],
    'pt-BR': ['visibilidade', 'Públicas, privadas ou o padrão de cada subcomando'],
  },
  'settings ip-answers visibility=public': { fr: ['publiques'], de: ['öffentlich'], it: ['pubbliche'], 'pt-BR': ['públicas'] },
  'settings ip-answers visibility=private': { fr: ['privées'], de: ['privat'], it: ['private'], 'pt-BR': ['privadas'] },
  'settings ip-answers visibility=default': DEFAULT,
  'settings wallpaper-purity': {
    fr: ['pureté-fonds', 'Le plus qu’un salon peut montrer ; jamais plus qu’il ne permet'],
    de: ['hintergrund-reinheit', 'Das Äußerste, was ein Kanal zeigen darf; nie mehr, als er erlaubt'],
    it: ['purezza-sfondi', 'Il massimo che un canale può mostrare; mai più di quanto consente'],
    'pt-BR': ['pureza-papéis', 'O máximo que um canal pode mostrar; nunca mais do que ele permite'],
  },
  'settings wallpaper-purity purity': {
    fr: ['pureté', 'La limite, ou Par défaut pour aucune'],
    de: ['reinheit', 'Die Obergrenze oder Standard für keine'],
    it: ['purezza', 'Il limite, o Predefinito per nessuno'],
    'pt-BR': ['pureza', 'O limite, ou Padrão para nenhum'],
  },
  'settings wallpaper-purity purity=sfw': sameEverywhere('SFW'),
  'settings wallpaper-purity purity=sketchy': sameEverywhere('sketchy'),
  'settings wallpaper-purity purity=nsfw': sameEverywhere('NSFW'),
  'settings wallpaper-purity purity=default': DEFAULT,
  'settings wallpaper-purity channel': CHANNEL,
  'settings show': {
    fr: ['afficher', 'Ce qui s’applique ici, et d’où vient chaque valeur'],
    de: ['anzeigen', 'Was hier gilt und woher jeder Wert kommt'],
    it: ['mostra', 'Cosa vale qui e da dove viene ogni valore'],
    'pt-BR': ['mostrar', 'O que vale aqui e de onde vem cada valor'],
  },
  'settings show channel': {
    fr: ['salon', 'Un autre salon de ce serveur'],
    de: ['kanal', 'Ein anderer Kanal dieses Servers'],
    it: ['canale', 'Un altro canale di questo server'],
    'pt-BR': ['canal', 'Outro canal deste servidor'],
  },
};
