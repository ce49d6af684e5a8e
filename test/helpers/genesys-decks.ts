/**
 * Bastion's test deck for Genesys (DawnbrandBots/bastion-bot#653, first comment): Genesys legal,
 * several pointed cards, 100 points in all on Konami's list of 2025-09-24 (2× Pot of Greed 60,
 * 2× Mulcharmy Purulia 20, 2× Mulcharmy Fuwalos 14, Ghost Ogre & Snow Rabbit 5, Hot Red Dragon
 * Archfiend King Calamity 1), which the fake YGOPRODeck serves (test/fixtures/genesys-points-2025-09-24.json).
 */
export const BASTION_653 =
  'ydke://wpBPBMKQTwTCkE8EE3GJARNxiQETcYkB8XQiA/F0IgPxdCID36vjBTUHgwI1B4MCRK0EBUStBAXRfSYBsC3BA7AtwQOwLcEDUveKA3FsEgJxbBICcWwSAtY8cQLaat0F2mrdBdpq3QVO93UBTvd1AU73dQEtbJwELWycBEAUXwFAFF8BQBRfAUpwSQNKcEkDhBYWAxkB2gWfCFIA0M37Ag==!dr+1AzqP7wUlk88FI8T2APFkMgJs1ZQAbNWUAAbezgQNaDYFDWg2BdfjOQTX4zkEKD7xAyg+8QMoPvED!!';
