import type { OpsCatalogue } from './shape.js';

export const opsPtBr: OpsCatalogue = {
  whois: {
    button: (address) => `Titular e abuso: ${address}`,
    range: 'Faixa',
    network: 'Rede',
    country: 'País',
    registry: 'Registro',
    registrant: 'Titular',
    registrar: 'Registrador',
    abuse: 'Contato de abuso',
    noAbuse: 'O registro não indica contato de abuso para esta rede.',
    reportLine: 'Pronto para enviar (ao contato de abuso, em inglês):',
    registered: 'Registrado',
    changed: 'Última alteração',
    expires: 'Expira',
    status: 'Status',
    nameServers: 'Servidores de nomes',
    notRegistered: (query) => `Nenhum registro tem um registro de ${query}.`,
    giveQuery: 'Informe um endereço IP, um domínio ou um número de AS, por exemplo `8.8.8.8`, `example.com` ou `AS13335`.',
    specialAddress: 'Esse endereço não está na internet pública: nenhum registro o conhece, e ele nunca é enviado a um.',
    asnTooLarge: 'Números de AS vão até 4294967295.',
    notAQuery: (reason) => `Não consigo consultar isso nos registros: ${reason}.`,
    slowDown: (limit, duration) =>
      `Mais devagar: os registros são compartilhados por todos aqui, e você já fez suas ${limit} novas consultas por enquanto. Tente de novo em ${duration} (respostas já obtidas continuam gratuitas).`,
  },
};
