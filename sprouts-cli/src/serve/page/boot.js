resize();
connect();
